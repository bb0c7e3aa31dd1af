package dev.memoir.archive.dataexport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;

import org.junit.jupiter.api.Test;

class TurnSplitterTest {

    @Test
    void aMessageIsCutAtParagraphsThenLinesThenSpacesIntoPiecesOfAtMostTheLimit() {
        String text = "a".repeat(6) + "\n\n" + "b".repeat(4) + " " + "c".repeat(4) + "\nd";

        assertThat(TurnSplitter.split(text, 10)).containsExactly("aaaaaa", "bbbb cccc", "d");
    }

    @Test
    void aWordLongerThanTheLimitIsCutWhereItMustButNeverInsideASurrogatePair() {
        String word = "x".repeat(9) + "🎉" + "y".repeat(5);

        List<String> pieces = TurnSplitter.split(word, 10);

        assertThat(pieces).containsExactly("x".repeat(9), "🎉" + "y".repeat(5));
        assertThat(String.join("", pieces)).isEqualTo(word);
    }

    /**
     * A word of millions of characters is split in time and memory proportional to it: the rest of the word is not
     * copied at every cut, which made a 292 KB zip (a word hundreds of megabytes long) take minutes.
     */
    @Test
    void splittingALongWordAllocatesInProportionToItNotToItsSquare() {
        String word = "z".repeat(4_000_000);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();

        List<String> pieces = TurnSplitter.split(word, ConversationPlanner.TURN_LIMIT);

        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(pieces)
                .hasSize((word.length() + ConversationPlanner.TURN_LIMIT - 1) / ConversationPlanner.TURN_LIMIT);
        assertThat(String.join("", pieces).equals(word))
                .as("the pieces make the word")
                .isTrue();
        // The pieces themselves are about the word's size (Latin-1 strings, a byte a character) and a few copies of it
        // go through the piece builder; copying the rest at each of the 125 cuts allocated about 250 MB.
        assertThat(allocated).as("bytes allocated").isLessThan(10L * word.length());
    }
}
