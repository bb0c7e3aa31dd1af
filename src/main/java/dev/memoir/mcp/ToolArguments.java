package dev.memoir.mcp;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.SearchMode;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.TextSafety;

/**
 * A tool call's arguments, checked as the REST API checks its requests: a tool's input has no Spring validation in
 * front of it, so each read refuses what the matching endpoint would refuse, naming the argument.
 */
final class ToolArguments {

    private final Map<String, Object> values;

    ToolArguments(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    /** Text with something visible in it, stripped; null when optional and absent. */
    String text(String name, int maxLength, boolean required) {
        String value = string(name, required);
        if (value == null) {
            return null;
        }
        if (!TextSafety.hasVisibleCharacter(value)) {
            throw new InvalidRequestException(name, "must not be blank");
        }
        if (value.length() > maxLength) {
            throw new InvalidRequestException(name, "must be at most " + maxLength + " characters");
        }
        return value.strip();
    }

    /** A user id in its canonical form, as everywhere else in the API. */
    String userId(String name, boolean required) {
        String value = string(name, required);
        if (value == null) {
            return null;
        }
        if (value.isBlank() || value.length() > 200 || !TextSafety.isCanonicalIdentifier(value)) {
            throw new InvalidRequestException(name, "must be 1 to 200 characters, without surrounding white space "
                    + "or control or invisible characters");
        }
        return value;
    }

    UUID uuid(String name, boolean required) {
        String value = string(name, required);
        try {
            return value == null ? null : UUID.fromString(value.strip());
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, "must be a UUID");
        }
    }

    Instant instant(String name) {
        String value = string(name, false);
        try {
            return value == null ? null : Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(name, "must be an ISO-8601 instant, e.g. 2024-03-01T09:00:00Z");
        }
    }

    /** Whether the argument is present at all, even as null (null clears an expiry). */
    boolean has(String name) {
        return values.containsKey(name);
    }

    /** Memory ids, at most {@code max}; null when absent. */
    java.util.List<UUID> uuids(String name, int max) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Collection<?> many) || many.size() > max) {
            throw new InvalidRequestException(name, "must be an array of at most " + max + " memory ids");
        }
        java.util.List<UUID> ids = new java.util.ArrayList<>();
        for (Object id : many) {
            try {
                ids.add(UUID.fromString(String.valueOf(id).strip()));
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException(name, "must hold UUIDs only");
            }
        }
        return ids;
    }

    boolean bool(String name) {
        Object value = values.get(name);
        if (value == null) {
            return false;
        }
        if (!(value instanceof Boolean flag)) {
            throw new InvalidRequestException(name, "must be true or false");
        }
        return flag;
    }

    int integer(String name, int min, int max, int defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())
                || number.doubleValue() < min || number.doubleValue() > max) {
            throw new InvalidRequestException(name, "must be a whole number from " + min + " to " + max);
        }
        return number.intValue();
    }

    /** Memory kinds, as an array of names or one name; every kind when absent or empty. */
    Set<MemoryKind> kinds(String name) {
        Object value = values.get(name);
        Collection<?> names = value == null ? Set.of() : value instanceof Collection<?> many ? many : Set.of(value);
        if (names.isEmpty()) {
            return EnumSet.allOf(MemoryKind.class);
        }
        Set<MemoryKind> kinds = EnumSet.noneOf(MemoryKind.class);
        for (Object kind : names) {
            kinds.add(kind(name, kind));
        }
        return kinds;
    }

    MemoryKind kind(String name) {
        Object value = values.get(name);
        return value == null ? null : kind(name, value);
    }

    SearchMode mode(String name) {
        String value = string(name, false);
        try {
            return value == null ? null : SearchMode.fromWireName(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, e.getMessage());
        }
    }

    /** A string passed on as it is (a cursor): only checked to be text. */
    String string(String name, boolean required) {
        Object value = values.get(name);
        if (value == null) {
            if (required) {
                throw new InvalidRequestException(name, "is required");
            }
            return null;
        }
        if (!(value instanceof String text)) {
            throw new InvalidRequestException(name, "must be a string");
        }
        String problem = TextSafety.problem(text);
        if (problem != null) {
            throw new InvalidRequestException(name, problem);
        }
        return text;
    }

    private static MemoryKind kind(String name, Object value) {
        if (!(value instanceof String text)) {
            throw new InvalidRequestException(name, "must name memory kinds");
        }
        try {
            return MemoryKind.fromWireName(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, e.getMessage());
        }
    }
}
