package dev.memoir.memory;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Stores a kind by its wire name, so that the database reads like the API. */
@Converter(autoApply = true)
class MemoryKindConverter implements AttributeConverter<MemoryKind, String> {

    @Override
    public String convertToDatabaseColumn(MemoryKind kind) {
        return kind == null ? null : kind.wireName();
    }

    @Override
    public MemoryKind convertToEntityAttribute(String value) {
        return value == null ? null : MemoryKind.fromWireName(value);
    }
}
