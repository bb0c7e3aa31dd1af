package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.LenientJson;

class ConditionalNoteTest {

    @Test
    void aNoteWithItsSummaryBecomesTheMemoryText() {
        var note = ConditionalNote.read(LenientJson.object(
                        "{\"context\": \"NaN\", \"summary\": \"Travel plans.\", \"note\": \"Flies to Rome in May.\"}")
                .orElseThrow());
        assertThat(note)
                .map(ConditionalNote::memoryText)
                .contains("Context: Travel plans.\nNote: Flies to Rome in May.");
    }

    @Test
    void anAnswerWithoutANoteIsUnusable() {
        assertThat(ConditionalNote.read(
                        LenientJson.object("{\"summary\": \"x\"}").orElseThrow()))
                .isEmpty();
    }

    @Test
    void aNaNNoteIsAUsableAnswerWithNothingWorthKeeping() {
        assertThat(ConditionalNote.read(LenientJson.object("{\"summary\": \"x\", \"note\": \"NaN\"}")
                        .orElseThrow()))
                .hasValueSatisfying(note -> assertThat(note.worthKeeping()).isFalse());
    }

    @Test
    void aNaNSummaryLeavesJustTheNote() {
        assertThat(ConditionalNote.read(LenientJson.object("{\"summary\": \"NaN\", \"note\": \"Likes tea.\"}")
                        .orElseThrow()))
                .map(ConditionalNote::memoryText)
                .contains("Note: Likes tea.");
    }
}
