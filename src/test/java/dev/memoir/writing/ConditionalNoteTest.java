package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.LenientJson;

class ConditionalNoteTest {

    @Test
    void aNoteWithItsSummaryBecomesTheMemoryText() {
        var note = ConditionalNote.from(LenientJson.object(
                "{\"context\": \"NaN\", \"summary\": \"Travel plans.\", \"note\": \"Flies to Rome in May.\"}").orElseThrow());
        assertThat(note).map(ConditionalNote::memoryText).contains("Context: Travel plans.\nNote: Flies to Rome in May.");
    }

    @Test
    void withoutANoteThereIsNothingToStore() {
        assertThat(ConditionalNote.from(LenientJson.object("{\"summary\": \"x\"}").orElseThrow())).isEmpty();
        assertThat(ConditionalNote.from(LenientJson.object("{\"summary\": \"x\", \"note\": \"NaN\"}").orElseThrow()))
                .isEmpty();
    }

    @Test
    void aNaNSummaryLeavesJustTheNote() {
        assertThat(ConditionalNote.from(LenientJson.object("{\"summary\": \"NaN\", \"note\": \"Likes tea.\"}")
                .orElseThrow())).map(ConditionalNote::memoryText).contains("Note: Likes tea.");
    }
}
