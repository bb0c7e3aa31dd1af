package dev.memoir.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Random JSON values valid under a JSON schema of the subset Memoir's steps use (and OpenAI's strict mode takes):
 * objects with all properties required, arrays with minItems and maxItems, strings with or without an enum,
 * integers with minimum and maximum, booleans, and unions with null. Strings include what a model may write and a
 * schema cannot forbid: empty and blank ones, "NaN", "None", very long ones; integers without bounds include
 * values beyond an int.
 */
public final class SchemaAnswers {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> TEXTS = List.of(
            "",
            " ",
            "\n\t",
            "a",
            "NaN",
            "None",
            "null",
            "merge",
            "add",
            "Search[hiking boots]",
            "The user lives in Porto.",
            "ünïcödé ✓ 中文",
            "{\"nested\": true}",
            "x".repeat(5000),
            "word ".repeat(300).strip());

    private final Random random;

    public SchemaAnswers(long seed) {
        this.random = new Random(seed);
    }

    public JsonNode answer(String schema) {
        return value(JSON.readTree(schema));
    }

    private JsonNode value(JsonNode schema) {
        List<String> types = new ArrayList<>();
        if (schema.path("type").isArray()) {
            schema.path("type").forEach(type -> types.add(type.asString()));
        } else {
            types.add(schema.path("type").asString());
        }
        String type = types.get(random.nextInt(types.size()));
        return switch (type) {
            case "object" -> object(schema);
            case "array" -> array(schema);
            case "string" -> string(schema);
            case "integer" -> integer(schema);
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            case "null" -> NODES.nullNode();
            default -> throw new IllegalArgumentException("A schema type the generator does not know: " + type);
        };
    }

    private ObjectNode object(JsonNode schema) {
        ObjectNode object = NODES.objectNode();
        for (String name : schema.path("properties").propertyNames()) {
            object.set(name, value(schema.path("properties").path(name)));
        }
        return object;
    }

    private ArrayNode array(JsonNode schema) {
        int min = schema.path("minItems").asInt(0);
        int max = schema.has("maxItems") ? schema.path("maxItems").asInt() : min + 4;
        int size = min + random.nextInt(max - min + 1);
        ArrayNode array = NODES.arrayNode();
        for (int i = 0; i < size; i++) {
            array.add(value(schema.path("items")));
        }
        return array;
    }

    private JsonNode string(JsonNode schema) {
        if (schema.has("enum")) {
            JsonNode options = schema.path("enum");
            return options.get(random.nextInt(options.size()));
        }
        return NODES.stringNode(TEXTS.get(random.nextInt(TEXTS.size())));
    }

    private JsonNode integer(JsonNode schema) {
        boolean bounded = schema.has("minimum") || schema.has("maximum");
        long min = schema.has("minimum") ? schema.path("minimum").asLong() : -3_000_000_000L;
        long max = schema.has("maximum") ? schema.path("maximum").asLong() : 3_000_000_000L;
        if (!bounded && random.nextInt(4) > 0) {
            return NODES.numberNode(random.nextInt(21) - 10);
        }
        // The bounds themselves, and any value between them.
        long value = switch (random.nextInt(3)) {
            case 0 -> min;
            case 1 -> max;
            default -> min + (long) (random.nextDouble() * (max - min + 1));
        };
        return NODES.numberNode(Math.min(max, value));
    }
}
