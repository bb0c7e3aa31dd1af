package dev.memoir.memory.supersession;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/**
 * The model's judgement of how a new memory relates to each of the user's similar live memories, by their number
 * in the prompt. Entries that name no shown memory or no known relation are left out; a memory the answer does
 * not mention is unrelated.
 */
public record SupersessionAnswer(List<Judged> judged) {

    public enum Relation {
        UPDATES,
        CONTRADICTS,
        REPEATS,
        UNRELATED;

        /** Whether the new memory makes the older one no longer current. */
        public boolean supersedes() {
            return this == UPDATES || this == CONTRADICTS;
        }
    }

    public record Judged(int index, Relation relation) {}

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "relations": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "index": {"type": "integer", "minimum": 0, "maximum": {{last}},
                                "description": "Number of the existing memory"},
                      "relation": {"type": "string", "enum": ["updates", "contradicts", "repeats", "unrelated"]}
                    },
                    "required": ["index", "relation"],
                    "additionalProperties": false
                  }
                }
              },
              "required": ["relations"],
              "additionalProperties": false
            }""";

    public static final ModelStep<SupersessionAnswer> STEP =
            ModelStep.json("supersession", JSON_SCHEMA, SupersessionAnswer::read);

    static Optional<SupersessionAnswer> read(JsonNode json, Map<String, String> values) {
        JsonNode relations = json.get("relations");
        if (relations == null || !relations.isArray()) {
            return Optional.empty();
        }
        int last = Integer.parseInt(values.getOrDefault("last", "-1"));
        List<Judged> judged = new ArrayList<>();
        for (JsonNode entry : relations) {
            JsonNode index = entry.get("index");
            JsonNode relation = entry.get("relation");
            if (index == null
                    || !index.isIntegralNumber()
                    || index.asInt() < 0
                    || index.asInt() > last
                    || relation == null
                    || !relation.isString()) {
                continue;
            }
            relation(relation.asString()).ifPresent(r -> judged.add(new Judged(index.asInt(), r)));
        }
        return Optional.of(new SupersessionAnswer(List.copyOf(judged)));
    }

    private static Optional<Relation> relation(String name) {
        for (Relation relation : Relation.values()) {
            if (relation.name().equalsIgnoreCase(name.strip())) {
                return Optional.of(relation);
            }
        }
        return Optional.empty();
    }
}
