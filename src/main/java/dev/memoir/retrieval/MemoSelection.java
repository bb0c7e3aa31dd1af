package dev.memoir.retrieval;

import java.util.List;
import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/** The memo-retrieval step's answer (MemoChat, Table 7): the numbers of the chosen topic options. */
record MemoSelection(List<Integer> selected) {

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "selected": {"type": "array", "minItems": 1,
                             "items": {"type": "integer", "minimum": 1, "maximum": {{count}}},
                             "description": "Numbers of the chosen topic options"}
              },
              "required": ["selected"],
              "additionalProperties": false
            }""";

    static final ModelStep<MemoSelection> STEP =
            ModelStep.json("memo-retrieval", JSON_SCHEMA, json -> Optional.of(from(json)));

    static MemoSelection from(JsonNode json) {
        return new MemoSelection(LenientJson.integers(json, "selected"));
    }
}
