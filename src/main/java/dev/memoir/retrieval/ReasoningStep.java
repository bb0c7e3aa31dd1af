package dev.memoir.retrieval;

import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/** One step of R^3 as the model answers it (RAM, F.2): a thought and an action, Search or Finish. */
record ReasoningStep(String thought, Action action, String argument) {

    enum Action {
        SEARCH,
        FINISH
    }

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "thought": {"type": "string", "description": "Reasoning about the situation"},
                "action": {"type": "string", "enum": ["search", "finish"]},
                "argument": {"type": "string", "description": "Keywords to search for, or the final answer"}
              },
              "required": ["thought", "action", "argument"],
              "additionalProperties": false
            }""";

    /** One search step of R^3; counted with the final inference as reasoning. */
    static final ModelStep<ReasoningStep> STEP =
            ModelStep.json("r3-step", JSON_SCHEMA, ReasoningStep::from).labelled("reasoning");

    /** The step, if it names a known action with an argument; also reads "Search[...]" written out. */
    static Optional<ReasoningStep> from(JsonNode json) {
        String thought = LenientJson.text(json, "thought").orElse("");
        String action = LenientJson.text(json, "action").orElse("").toLowerCase();
        Optional<String> argument = LenientJson.text(json, "argument");
        if (argument.isEmpty()) {
            return Optional.empty();
        }
        String value = argument.get()
                .replaceFirst("(?i)^(search|finish)\\[(.*)]$", "$2")
                .strip();
        if (action.startsWith("search")) {
            return Optional.of(new ReasoningStep(thought, Action.SEARCH, value));
        }
        if (action.startsWith("finish")) {
            return Optional.of(new ReasoningStep(thought, Action.FINISH, value));
        }
        return Optional.empty();
    }
}
