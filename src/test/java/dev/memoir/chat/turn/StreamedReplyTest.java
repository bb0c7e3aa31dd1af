package dev.memoir.chat.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.LenientJson;

import tools.jackson.databind.json.JsonMapper;

class StreamedReplyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The deltas sent for the answer cut into pieces of {@code size} characters, the finishing one included. */
    private static List<String> stream(String answer, int size) {
        List<String> deltas = new ArrayList<>();
        StreamedReply streamed = new StreamedReply(deltas::add);
        for (int at = 0; at < answer.length(); at += size) {
            streamed.accept(answer.substring(at, Math.min(answer.length(), at + size)));
        }
        streamed.finish(ReplyDecision.read(LenientJson.object(answer).orElseThrow())
                .orElseThrow()
                .reply());
        return deltas;
    }

    private static String stored(String answer) {
        return ReplyDecision.read(LenientJson.object(answer).orElseThrow())
                .orElseThrow()
                .reply();
    }

    private static String answerWithReply(String reply) {
        return "{\"reply\": " + JSON.writeValueAsString(reply) + ", \"remember\": false, \"citations\": []}";
    }

    @Test
    void theDeltasJoinToTheStoredReplyAndArriveInSeveralPieces() {
        String answer = answerWithReply("  \n Bonjour ! I will answer in French from now on.\n\n  ");

        for (int size = 1; size <= 12; size++) {
            List<String> deltas = stream(answer, size);
            assertThat(String.join("", deltas))
                    .as("pieces of %d", size)
                    .isEqualTo(stored(answer))
                    .isEqualTo("Bonjour ! I will answer in French from now on.");
            assertThat(deltas).as("pieces of %d", size).hasSizeGreaterThan(3).doesNotContain("");
        }
    }

    @Test
    void whiteSpaceWaitsForTheTextAfterItAndHalfASurrogatePairForItsOtherHalf() {
        List<String> deltas = new ArrayList<>();
        StreamedReply streamed = new StreamedReply(deltas::add);

        streamed.accept("{\"reply\": \"Hi  ");
        assertThat(deltas).containsExactly("Hi");
        streamed.accept("there \\ud83d");
        assertThat(deltas).containsExactly("Hi", "  there");
        streamed.accept("\\ude00!\"}");
        assertThat(deltas).containsExactly("Hi", "  there", " \ud83d\ude00!");
        streamed.finish("Hi  there \ud83d\ude00!");
        assertThat(deltas).hasSize(3);
    }

    @Test
    void aRunawayReplyStreamsOnlyWhatItsCutKeepsAndTheMarkerComesLast() {
        String words = "word ".repeat(LenientJson.MAX_TEXT_LENGTH / 5 + 500);
        String noSpaces = "x".repeat(LenientJson.MAX_TEXT_LENGTH + 3000);
        String spaceInTheFirstHalfOnly = "y".repeat(100) + " " + "z".repeat(LenientJson.MAX_TEXT_LENGTH + 100);
        for (String reply : List.of(words, noSpaces, spaceInTheFirstHalfOnly)) {
            String answer = answerWithReply(reply);
            for (int size : new int[] {1, 7, 64, 5000}) {
                List<String> deltas = stream(answer, size);
                assertThat(String.join("", deltas)).isEqualTo(stored(answer)).endsWith("\u2026");
                assertThat(deltas.getLast()).endsWith("\u2026");
                assertThat(deltas).hasSizeGreaterThan(1);
            }
        }
    }

    @Test
    void aReplyThatIsNotAStringComesWholeAtTheEnd() {
        List<String> deltas = new ArrayList<>();
        StreamedReply streamed = new StreamedReply(deltas::add);

        streamed.accept("{\"reply\": 42, \"remember\": false}");
        assertThat(deltas).isEmpty();
        streamed.finish("42");

        assertThat(deltas).containsExactly("42");
    }
}
