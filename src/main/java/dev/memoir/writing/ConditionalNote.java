package dev.memoir.writing;

import java.util.Optional;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;

/**
 * The model's conditional memory record for one utterance (conditional-memory paper, Figure 9): the related context
 * it found (an intermediate product, not stored), why the user said it, and a note for the future; and, since the
 * step judges what of the message to keep, the standing instruction or preference it states, in the user's words
 * ({@link dev.memoir.memory.api.MemoryKind#INSTRUCTION}), "NaN" when it states none.
 */
record ConditionalNote(String context, String summary, String note, String instruction) {

    private static final String JSON_SCHEMA = """
            {
              "type": "object",
              "properties": {
                "context": {"type": "string", "description": "Related lines of the dialogue, or NaN"},
                "summary": {"type": "string", "description": "Why the user said it"},
                "note": {"type": "string", "description": "The utterance rewritten as a note for later"},
                "instruction": {"type": "string",
                                "description": "The standing instruction or preference it states, word for word, or NaN"}
              },
              "required": ["context", "summary", "note", "instruction"],
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
                LenientJson.text(json, "note").orElse("NaN"),
                LenientJson.text(json, "instruction").orElse("NaN")));
    }

    /** The standing instruction or preference the message states, if the model found one. */
    Optional<String> standingInstruction() {
        String text = instruction == null ? "" : instruction.strip();
        return text.isEmpty() || text.equalsIgnoreCase("nan") ? Optional.empty() : Optional.of(text);
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
