package dev.memoir.writing;

import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/**
 * The model's conditional memory record for one utterance (conditional-memory paper, Figure 9): the related context
 * it found (an intermediate product, not stored), why the user said it, and a note for the future.
 */
record ConditionalNote(String context, String summary, String note) {

    private static final String JSON_SCHEMA = """
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

    static final ModelStep<ConditionalNote> STEP =
            ModelStep.json("conditional-memory", JSON_SCHEMA, ConditionalNote::read);

    /**
     * The record; unusable (empty) when the answer has no note at all. A note of "NaN", or a blank one, is a usable
     * "nothing worth keeping".
     */
    static Optional<ConditionalNote> read(JsonNode json) {
        JsonNode note = json.get("note");
        if (note == null || note.isContainer()) {
            return Optional.empty();
        }
        String summary = LenientJson.text(json, "summary")
                .filter(s -> !s.equalsIgnoreCase("nan"))
                .orElse("");
        return Optional.of(new ConditionalNote(
                LenientJson.text(json, "context").orElse("NaN"),
                summary,
                LenientJson.text(json, "note").orElse("NaN")));
    }

    /** Whether the model found anything worth storing: it writes NaN (or nothing) as the note when it did not. */
    boolean worthKeeping() {
        return !note.isBlank() && !note.strip().equalsIgnoreCase("nan");
    }

    /** The stored memory text: the situation first, then what to remember. */
    String memoryText() {
        return summary.isEmpty() ? "Note: " + note : "Context: " + summary + "\nNote: " + note;
    }
}
