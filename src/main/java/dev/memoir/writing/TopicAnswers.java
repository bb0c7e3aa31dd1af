package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/** The answers of RMM's two prospective-reflection steps: extracted summaries, and add/merge actions. */
final class TopicAnswers {

    private static final String EXTRACTION_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "extracted_memories": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "summary": {"type": "string", "description": "A concise personal summary of the speaker"},
                      "reference": {"type": "array",
                                    "items": {"type": "integer", "minimum": {{first}}, "maximum": {{last}}},
                                    "description": "Numbers of the turns it rests on"}
                    },
                    "required": ["summary", "reference"],
                    "additionalProperties": false
                  }
                }
              },
              "required": ["extracted_memories"],
              "additionalProperties": false
            }""";

    static final ModelStep<List<Extracted>> EXTRACTION =
            ModelStep.json("topic-extraction", EXTRACTION_SCHEMA, TopicAnswers::extracted);

    private static final String UPDATE_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "actions": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "object",
                    "properties": {
                      "action": {"type": "string", "enum": ["add", "merge"]},
                      "index": {"type": ["integer", "null"], "minimum": 0, "maximum": {{last}},
                                "description": "For merge: position of the history summary, from 0"},
                      "merged_summary": {"type": ["string", "null"],
                                         "description": "For merge: the two summaries merged into one"}
                    },
                    "required": ["action", "index", "merged_summary"],
                    "additionalProperties": false
                  }
                }
              },
              "required": ["actions"],
              "additionalProperties": false
            }""";

    static final ModelStep<List<Optional<Action>>> UPDATE =
            ModelStep.json("topic-update", UPDATE_SCHEMA, TopicAnswers::actions);

    private TopicAnswers() {}

    record Extracted(String summary, List<Integer> references) {

        /** The same summary with only the references to turns {@code from} (inclusive) to {@code to} (exclusive). */
        Extracted within(int from, int to) {
            return new Extracted(
                    summary,
                    references.stream().filter(n -> n >= from && n < to).toList());
        }
    }

    /** An action the model asked for; {@code index} and {@code merged} are set for merges. */
    record Action(boolean merge, Integer index, String merged) {

        static Action add() {
            return new Action(false, null, null);
        }
    }

    /** The extracted summaries (none for "no trait"); unusable (empty) without the list the schema asks for. */
    static Optional<List<Extracted>> extracted(JsonNode json) {
        if (!json.path("extracted_memories").isArray()) {
            return Optional.empty();
        }
        List<Extracted> result = new ArrayList<>();
        for (JsonNode item : json.path("extracted_memories")) {
            if (item.isObject()) {
                LenientJson.text(item, "summary")
                        .filter(s -> !s.equalsIgnoreCase("NO_TRAIT"))
                        .ifPresent(
                                summary -> result.add(new Extracted(summary, LenientJson.integers(item, "reference"))));
            }
        }
        return Optional.of(result);
    }

    /**
     * Each action read, empty where it is malformed (the caller logs what it ignores); unusable (empty) without
     * the list the schema asks for.
     */
    static Optional<List<Optional<Action>>> actions(JsonNode json) {
        if (!json.path("actions").isArray()) {
            return Optional.empty();
        }
        List<Optional<Action>> result = new ArrayList<>();
        for (JsonNode item : json.path("actions")) {
            String action = item.isObject()
                    ? LenientJson.text(item, "action").orElse("").toLowerCase()
                    : "";
            if (action.startsWith("add")) {
                result.add(Optional.of(Action.add()));
            } else if (action.startsWith("merge")) {
                Optional<Integer> index = LenientJson.integer(item, "index");
                Optional<String> merged = LenientJson.text(item, "merged_summary");
                result.add(
                        index.isPresent() && merged.isPresent()
                                ? Optional.of(new Action(true, index.get(), merged.get()))
                                : Optional.empty());
            } else {
                result.add(Optional.empty());
            }
        }
        return Optional.of(result);
    }
}
