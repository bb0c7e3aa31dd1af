package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/** The memo-writing step's answer (MemoChat, Table 6): the dialogue's topics with summaries and line ranges. */
final class MemoAnswer {

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "memos": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "object",
                    "properties": {
                      "topic": {"type": "string", "description": "A short name for the topic"},
                      "summary": {"type": "string", "description": "What was said about it, in brief"},
                      "start": {"type": "integer", "minimum": 1, "maximum": {{lines}},
                                "description": "First line of the topic"},
                      "end": {"type": "integer", "minimum": 1, "maximum": {{lines}},
                              "description": "Last line of the topic"}
                    },
                    "required": ["topic", "summary", "start", "end"],
                    "additionalProperties": false
                  }
                }
              },
              "required": ["memos"],
              "additionalProperties": false
            }""";

    /**
     * The memos of the answer, their ranges repaired over the request's {@code lines}; unusable (empty) when none
     * is left, which happens only when every memo has neither a topic nor a summary.
     */
    static final ModelStep<List<MemoRanges.Memo>> STEP = ModelStep.json(
            "memo-writing",
            JSON_SCHEMA,
            (json, values) -> Optional.of(MemoRanges.repair(proposals(json), Integer.parseInt(values.get("lines"))))
                    .filter(memos -> !memos.isEmpty()));

    private MemoAnswer() {}

    static List<MemoRanges.Proposed> proposals(JsonNode json) {
        List<MemoRanges.Proposed> proposals = new ArrayList<>();
        for (JsonNode memo : json.path("memos")) {
            if (memo.isObject()) {
                proposals.add(new MemoRanges.Proposed(
                        LenientJson.text(memo, "topic").orElse(null),
                        LenientJson.text(memo, "summary").orElse(null),
                        LenientJson.integer(memo, "start").orElse(null),
                        LenientJson.integer(memo, "end").orElse(null)));
            }
        }
        return proposals;
    }
}
