package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SentenceLimitTest {

    @Test
    void keepsTheFirstSentencesAcrossLines() {
        assertThat(SentenceLimit.firstSentences("One. Two! Three?\nFour. Five.", 4))
                .isEqualTo("One. Two! Three? Four.");
    }

    @Test
    void aShortTextStaysWhole() {
        assertThat(SentenceLimit.firstSentences("  The user likes tea.  ", 20)).isEqualTo("The user likes tea.");
        assertThat(SentenceLimit.firstSentences("", 20)).isEmpty();
    }
}
