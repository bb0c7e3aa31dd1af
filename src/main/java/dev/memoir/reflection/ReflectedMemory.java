package dev.memoir.reflection;

import java.util.Optional;

import tools.jackson.databind.JsonNode;

import dev.memoir.llm.LenientJson;

/** The memory-update step's answer (seed 004, F.4): a reflected memory, or "None" when nothing is to be learned. */
record ReflectedMemory(String text) {

    static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "reflected_memory": {"type": "string",
                                     "description": "The corrected memory, or None when nothing needs to change"}
              },
              "required": ["reflected_memory"],
              "additionalProperties": false
            }""";

    static Optional<ReflectedMemory> from(JsonNode json) {
        return LenientJson.text(json, "reflected_memory")
                .filter(text -> !text.replaceAll("[\\s.'\"]", "").equalsIgnoreCase("none"))
                .map(ReflectedMemory::new);
    }
}
