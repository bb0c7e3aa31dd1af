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

    /**
     * The longest text a model may write into a reply or a memory. A runaway answer (a model repeating itself
     * for 40,000 characters) is cut here rather than stored, and the cut is marked.
     */
    public static final int MAX_TEXT_LENGTH = 16_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LenientJson() {}

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
        return text.isEmpty() ? Optional.empty() : Optional.of(clip(text));
    }

    /** The text, cut at a word boundary to at most {@link #MAX_TEXT_LENGTH} characters, with an ellipsis. */
    public static String clip(String text) {
        if (text.length() <= MAX_TEXT_LENGTH) {
            return text;
        }
        int end = MAX_TEXT_LENGTH - 1;
        if (Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        int space = text.lastIndexOf(' ', end);
        if (space > MAX_TEXT_LENGTH / 2) {
            end = space;
        }
        return text.substring(0, end).stripTrailing() + "\u2026";
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
            return value.canConvertToInt() ? Optional.of(value.intValue()) : Optional.empty();
        }
        if (!value.isValueNode()) {
            return Optional.empty();
        }
        String text = value.asString().strip();
        return text.matches("-?\\d{1,9}") ? Optional.of(Integer.parseInt(text)) : Optional.empty();
    }

    /** The integers of an array field; entries that are not integers (or do not fit an int) are skipped. */
    public static List<Integer> integers(JsonNode node, String field) {
        List<Integer> result = new ArrayList<>();
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            return result;
        }
        for (JsonNode item : value) {
            if (item.isIntegralNumber()) {
                if (item.canConvertToInt()) {
                    result.add(item.intValue());
                }
            } else if (item.isString() && item.asString().strip().matches("\\d{1,9}")) {
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
