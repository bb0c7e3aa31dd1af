package dev.memoir.common.wire;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How enum values are written in the API: each constant's wire name is what its {@code @JsonValue} method answers
 * (its name in lower case where it has none). One parser for all of them, lenient about case and about dashes for
 * underscores, and one message for a value it does not know, which lists the accepted ones and never a Java name.
 */
public final class WireNames {

    private static final ClassValue<Method> WIRE_NAME = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            for (Method method : type.getDeclaredMethods()) {
                if (method.isAnnotationPresent(JsonValue.class) && method.getParameterCount() == 0) {
                    method.setAccessible(true);
                    return method;
                }
            }
            return null;
        }
    };

    private WireNames() {}

    /** A value the API does not know for an enum, with the values it accepts. */
    public static final class UnknownValueException extends IllegalArgumentException {

        UnknownValueException(String what, String value, Class<? extends Enum<?>> type) {
            super("unknown " + what + " '" + value + "'; accepted: " + accepted(type));
        }
    }

    /** The constant's wire name. */
    public static String of(Enum<?> constant) {
        Method method = WIRE_NAME.get(constant.getDeclaringClass());
        if (method == null) {
            return constant.name().toLowerCase(Locale.ROOT);
        }
        try {
            return String.valueOf(method.invoke(constant));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The wire names of every constant, in declaration order: "user, assistant". */
    public static String accepted(Class<?> type) {
        return Arrays.stream(type.getEnumConstants())
                .map(constant -> of((Enum<?>) constant))
                .collect(Collectors.joining(", "));
    }

    /**
     * The constant whose wire name, or name, {@code value} is, ignoring case, surrounding space and dashes for
     * underscores; {@code what} names the field for the message ("memory kind").
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String value, String what) {
        String wanted = normalized(value);
        for (E constant : type.getEnumConstants()) {
            if (normalized(of(constant)).equals(wanted)
                    || normalized(constant.name()).equals(wanted)) {
                return constant;
            }
        }
        throw new UnknownValueException(what, value, type);
    }

    private static String normalized(String value) {
        return value == null ? "" : value.strip().toLowerCase(Locale.ROOT).replace('-', '_');
    }
}
