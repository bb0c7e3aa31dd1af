package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import tools.jackson.databind.JsonNode;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

/** The memo-writing step's answer (MemoChat, Table 6): the dialogue's topics with summaries and line ranges. */
final class MemoAnswer {

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "memos": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "topic": {"type": "string", "description": "A short name for the topic"},
                      "summary": {"type": "string", "description": "What was said about it, in brief"},
                      "start": {"type": "integer", "description": "First line of the topic"},
                      "end": {"type": "integer", "description": "Last line of the topic"}
                    },
                    "required": ["topic", "summary", "start", "end"],
                    "additionalProperties": false
                  }
                }
              },
              "required": ["memos"],
              "additionalProperties": false
            }""";

    /** The proposed memos as the model wrote them, however few are usable (the writer repairs or asks again). */
    static final ModelStep<List<MemoRanges.Proposed>> STEP = ModelStep.json("memo-writing", JSON_SCHEMA,
            json -> Optional.of(proposals(json)));

    private MemoAnswer() {
    }

    static List<MemoRanges.Proposed> proposals(JsonNode json) {
        List<MemoRanges.Proposed> proposals = new ArrayList<>();
        for (JsonNode memo : json.path("memos")) {
            if (memo.isObject()) {
                proposals.add(new MemoRanges.Proposed(LenientJson.text(memo, "topic").orElse(null),
                        LenientJson.text(memo, "summary").orElse(null), LenientJson.integer(memo, "start").orElse(null),
                        LenientJson.integer(memo, "end").orElse(null)));
            }
        }
        return proposals;
    }
}
