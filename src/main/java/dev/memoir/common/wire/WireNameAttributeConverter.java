package dev.memoir.common.wire;

import java.util.Locale;

import jakarta.persistence.AttributeConverter;

/**
 * Stores an enum by its wire name ({@link WireNames}), so that the database reads like the API. A feature's entity
 * enum gets one concrete subclass, which JPA needs in order to apply it.
 */
public abstract class WireNameAttributeConverter<E extends Enum<E>> implements AttributeConverter<E, String> {

    private final Class<E> type;

    protected WireNameAttributeConverter(Class<E> type) {
        this.type = type;
    }

    @Override
    public String convertToDatabaseColumn(E value) {
        return value == null ? null : WireNames.of(value);
    }

    @Override
    public E convertToEntityAttribute(String value) {
        return value == null ? null : WireNames.parse(type, value, described(type));
    }

    /** An enum type as a message names it: MemoryKind is "memory kind". */
    static String described(Class<?> type) {
        return type.getSimpleName().replaceAll("(?<=[a-z])(?=[A-Z])", " ").toLowerCase(Locale.ROOT);
    }
}
