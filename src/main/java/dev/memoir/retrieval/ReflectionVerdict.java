package dev.memoir.retrieval;

import java.util.List;
import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/**
 * The model's judgement of retrieved memories (conditional-memory paper, Figure 10): whether they suffice to answer,
 * which of them (by number) are relevant, and keywords for another search when they do not.
 */
record ReflectionVerdict(boolean sufficient, List<Integer> relevant, List<String> keywords) {

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "sufficient": {"type": "boolean", "description": "Whether the memories are enough to answer"},
                "relevant": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": {{count}}},
                             "description": "Numbers of the memories that bear on the message"},
                "keywords": {"type": "array", "items": {"type": "string"},
                             "description": "Keywords for the missing information, when not sufficient"}
              },
              "required": ["sufficient", "relevant", "keywords"],
              "additionalProperties": false
            }""";

    static final ModelStep<ReflectionVerdict> STEP =
            ModelStep.json("self-reflection", JSON_SCHEMA, ReflectionVerdict::from);

    /** The verdict, or empty without a readable {@code sufficient}: then the memories are used as found. */
    static Optional<ReflectionVerdict> from(JsonNode json) {
        return LenientJson.bool(json, "sufficient")
                .map(sufficient -> new ReflectionVerdict(
                        sufficient, LenientJson.integers(json, "relevant"), LenientJson.strings(json, "keywords")));
    }
}
