package dev.memoir.feedback;

import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/** The memory-update step's answer (RAM, F.4): a reflected memory, or "None" when nothing is to be learned. */
record ReflectedMemory(String text) {

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "reflected_memory": {"type": "string",
                                     "description": "The corrected memory, or None when nothing needs to change"}
              },
              "required": ["reflected_memory"],
              "additionalProperties": false
            }""";

    static final ModelStep<ReflectedMemory> STEP =
            ModelStep.json("memory-reflection", JSON_SCHEMA, ReflectedMemory::read);

    /**
     * The answer; unusable (empty) without a reflected memory. "None", or a blank one, is a usable "nothing to
     * learn".
     */
    static Optional<ReflectedMemory> read(JsonNode json) {
        JsonNode reflected = json.get("reflected_memory");
        if (reflected == null || reflected.isContainer()) {
            return Optional.empty();
        }
        return Optional.of(
                new ReflectedMemory(LenientJson.text(json, "reflected_memory").orElse("None")));
    }

    boolean learnsSomething() {
        return !text.replaceAll("[\\s.'\"]", "").equalsIgnoreCase("none");
    }
}
