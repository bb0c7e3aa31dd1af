package dev.memoir.support;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * Request bodies as objects: names and values in, JSON text out, so that no test quotes or escapes by hand.
 * Values may be null, strings, numbers, booleans, instants (written as {@code Instant.toString()} writes them),
 * {@link #fields} maps, lists and {@link #parsed} JSON; anything else as Jackson writes it.
 */
public final class Json {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Json() {}

    /** The JSON object of the names and values (name, value, name, value, ...), in that order. */
    public static String object(Object... namesAndValues) {
        return write(fields(namesAndValues));
    }

    /** The names and values (name, value, name, value, ...) as an ordered map, for an object inside another. */
    public static Map<String, Object> fields(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs: " + Arrays.toString(namesAndValues));
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (!(namesAndValues[i] instanceof String name)) {
                throw new IllegalArgumentException("not a field name: " + namesAndValues[i]);
            }
            fields.put(name, namesAndValues[i + 1]);
        }
        return fields;
    }

    /** Any value as JSON text: a string quoted and escaped, a map an object, a list an array. */
    public static String write(Object value) {
        return JSON.writeValueAsString(value);
    }

    /** JSON text as a value to put inside another object, written again as it was parsed. */
    public static Object parsed(String json) {
        return JSON.readTree(json);
    }
}
