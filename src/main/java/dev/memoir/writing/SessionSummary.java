package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/**
 * The model's summary of a closed session (conditional-memory paper, Figure 7) and, since this is the step that
 * judges what of a whole session to keep, the standing instructions and preferences the user stated in it, in the
 * user's words ({@link dev.memoir.memory.api.MemoryKind#INSTRUCTION}).
 */
record SessionSummary(String summary, List<String> instructions) {

    /** Instructions read from one answer at most: a session states a few, never a page of them. */
    static final int MAX_INSTRUCTIONS = 10;

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "summary": {"type": "string", "description": "One short paragraph for your long-term memory"},
                "instructions": {"type": "array",
                                 "description": "Standing instructions or preferences the user stated, word for word",
                                 "items": {"type": "string"}}
              },
              "required": ["summary", "instructions"],
              "additionalProperties": false
            }""";

    static final ModelStep<SessionSummary> STEP = ModelStep.json("session-summary", JSON_SCHEMA, SessionSummary::read);

    /** The summary; unusable (empty) when the answer has no summary text. Instructions that are not text are skipped. */
    static Optional<SessionSummary> read(JsonNode json) {
        Optional<String> summary =
                LenientJson.text(json, "summary").map(String::strip).filter(s -> !s.isEmpty());
        if (summary.isEmpty()) {
            return Optional.empty();
        }
        List<String> instructions = new ArrayList<>();
        JsonNode list = json.get("instructions");
        if (list != null && list.isArray()) {
            for (JsonNode item : list) {
                if (item.isString() && instructions.size() < MAX_INSTRUCTIONS) {
                    String text = LenientJson.clip(item.asString().strip());
                    if (!text.isEmpty() && !text.equalsIgnoreCase("nan") && !instructions.contains(text)) {
                        instructions.add(text);
                    }
                }
            }
        }
        return Optional.of(new SessionSummary(summary.get(), List.copyOf(instructions)));
    }
}
