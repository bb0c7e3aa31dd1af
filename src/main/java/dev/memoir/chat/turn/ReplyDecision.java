package dev.memoir.chat.turn;

import java.util.List;
import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/**
 * The reply step's answer (conditional-memory paper, Figure 8): the response, and in the same call whether the
 * user's message is worth remembering and which numbered memories the response used (RMM's citations).
 */
public record ReplyDecision(String reply, boolean remember, List<Integer> citations) {

    ReplyDecision(String reply, boolean remember) {
        this(reply, remember, List.of());
    }

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "reply": {"type": "string", "description": "The response shown to the user"},
                "remember": {"type": "boolean", "description": "Whether the user's message is worth remembering"},
                "citations": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": {{entries}}},
                              "description": "Numbers of the [Memory] entries the reply used"}
              },
              "required": ["reply", "remember", "citations"],
              "additionalProperties": false
            }""";

    public static final ModelStep<ReplyDecision> STEP = ModelStep.json("reply", JSON_SCHEMA, ReplyDecision::read);

    /** Reads the answer; one without a reply is unusable (the model is asked again by whoever retries). */
    static Optional<ReplyDecision> read(JsonNode json) {
        return LenientJson.text(json, "reply")
                .map(reply -> new ReplyDecision(
                        reply,
                        LenientJson.bool(json, "remember").orElse(false),
                        LenientJson.integers(json, "citations")));
    }
}
