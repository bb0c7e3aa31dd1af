package dev.memoir.writing;

import java.util.Optional;

import tools.jackson.databind.JsonNode;

import dev.memoir.llm.LenientJson;

/**
 * The model's conditional memory record for one utterance (seed 000, Figure 9): the related context it found
 * (an intermediate product, not stored), why the user said it, and a note for the future.
 */
record ConditionalNote(String context, String summary, String note) {

    static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "context": {"type": "string", "description": "Related lines of the dialogue, or NaN"},
                "summary": {"type": "string", "description": "Why the user said it"},
                "note": {"type": "string", "description": "The utterance rewritten as a note for later"}
              },
              "required": ["context", "summary", "note"],
              "additionalProperties": false
            }""";

    /** The record, if the answer has at least a note; without one there is nothing worth storing. */
    static Optional<ConditionalNote> from(JsonNode json) {
        Optional<String> note = LenientJson.text(json, "note");
        if (note.isEmpty() || note.get().equalsIgnoreCase("nan")) {
            return Optional.empty();
        }
        String summary = LenientJson.text(json, "summary").filter(s -> !s.equalsIgnoreCase("nan")).orElse("");
        return Optional.of(new ConditionalNote(LenientJson.text(json, "context").orElse("NaN"), summary, note.get()));
    }

    /** The stored memory text: the situation first, then what to remember. */
    String memoryText() {
        return summary.isEmpty() ? "Note: " + note : "Context: " + summary + "\nNote: " + note;
    }
}
