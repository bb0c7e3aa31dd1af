package dev.memoir.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a model's JSON answer without trusting it: code fences and chatter around the object are skipped, and
 * the typed readers accept the near-misses small models produce ("yes" for true, "3" for 3).
 */
public final class LenientJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LenientJson() {
    }

    /** The first JSON object in the text, if there is one that parses. */
    public static Optional<JsonNode> object(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int start = text.indexOf('{');
        int end = text.lastIndexOf('}');
        if (start < 0 || end <= start) {
            return Optional.empty();
        }
        try {
            JsonNode node = JSON.readTree(text.substring(start, end + 1));
            return node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    public static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.isContainer()) {
            return Optional.empty();
        }
        String text = value.asString().strip();
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    public static Optional<Boolean> bool(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (value.isBoolean()) {
            return Optional.of(value.booleanValue());
        }
        return switch (value.asString().strip().toLowerCase()) {
            case "true", "yes", "y", "1" -> Optional.of(true);
            case "false", "no", "n", "0" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /** An integer field, also when written as a string ("3"). */
    public static Optional<Integer> integer(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (value.isIntegralNumber()) {
            return Optional.of(value.intValue());
        }
        String text = value.asString().strip();
        return text.matches("-?\\d{1,9}") ? Optional.of(Integer.parseInt(text)) : Optional.empty();
    }

    /** The integers of an array field; entries that are not integers are skipped. */
    public static List<Integer> integers(JsonNode node, String field) {
        List<Integer> result = new ArrayList<>();
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            return result;
        }
        for (JsonNode item : value) {
            if (item.isIntegralNumber()) {
                result.add(item.intValue());
            } else if (item.isString() && item.asString().strip().matches("\\d+")) {
                result.add(Integer.parseInt(item.asString().strip()));
            }
        }
        return result;
    }

    /** The non-blank strings of an array field. */
    public static List<String> strings(JsonNode node, String field) {
        List<String> result = new ArrayList<>();
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            return result;
        }
        for (JsonNode item : value) {
            if (item.isValueNode() && !item.isNull() && !item.asString().isBlank()) {
                result.add(item.asString().strip());
            }
        }
        return result;
    }
}
