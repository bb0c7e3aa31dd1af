package dev.memoir.chat.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

class JsonStringFieldDecoderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Feeds the pieces in turn and answers what the decoder handed out, joined. */
    private static String decode(List<String> pieces) {
        JsonStringFieldDecoder decoder = new JsonStringFieldDecoder("reply");
        StringBuilder out = new StringBuilder();
        pieces.forEach(piece -> out.append(decoder.feed(piece)));
        return out.toString();
    }

    /** Every way of cutting the text in two, and random cuts into many small pieces. */
    private static List<List<String>> cuts(String text) {
        List<List<String>> cuts = new ArrayList<>();
        for (int at = 0; at <= text.length(); at++) {
            cuts.add(List.of(text.substring(0, at), text.substring(at)));
        }
        Random random = new Random(7);
        for (int run = 0; run < 50; run++) {
            List<String> pieces = new ArrayList<>();
            for (int at = 0; at < text.length(); ) {
                int end = Math.min(text.length(), at + 1 + random.nextInt(4));
                pieces.add(text.substring(at, end));
                at = end;
            }
            cuts.add(pieces);
        }
        List<String> singles = new ArrayList<>();
        text.chars().forEach(c -> singles.add(String.valueOf((char) c)));
        cuts.add(singles);
        return cuts;
    }

    @Test
    void decodesTheFieldWhereverTheTextIsCutIncludingInsideEscapes() {
        List<String> answers = List.of(
                "{\"reply\": \"Hello there.\", \"remember\": false, \"citations\": []}",
                "{\"reply\": \"Line one\\nLine \\\"two\\\"\\tand a back\\\\slash \\/ done\", \"remember\": true}",
                "{\"reply\": \"caf\\u00e9 \\u00C9t\\u00e9 \\u20ac \\ud83d\\ude00 raw é €\", \"citations\": [1, 2]}",
                "{\"remember\": true, \"citations\": [3], \"reply\": \"Last field\"}",
                "```json\n{\"reply\" : \"Fenced\\r\\n\\b\\f\" }\n```",
                "{\"meta\": {\"reply\": \"nested, not this\"}, \"note\": \"reply\", "
                        + "\"list\": [\"reply\", {\"reply\": 1}], \"reply\": \"this one\"}",
                "{\"re\\u0070ly\": \"escaped key\"}");
        for (String answer : answers) {
            String expected = JSON.readTree(answer.substring(answer.indexOf('{'), answer.lastIndexOf('}') + 1))
                    .path("reply")
                    .asString();
            for (List<String> pieces : cuts(answer)) {
                assertThat(decode(pieces)).as("%s cut as %s", answer, pieces).isEqualTo(expected);
            }
        }
    }

    @Test
    void handsOutTheTextAsItArrives() {
        JsonStringFieldDecoder decoder = new JsonStringFieldDecoder("reply");

        assertThat(decoder.feed("{\"reply\": \"Hel")).isEqualTo("Hel");
        assertThat(decoder.feed("lo\\")).isEqualTo("lo");
        assertThat(decoder.feed("n wor")).isEqualTo("\n wor");
        assertThat(decoder.feed("ld \\u00")).isEqualTo("ld ");
        assertThat(decoder.complete()).isFalse();
        assertThat(decoder.feed("e9\", \"remember\": false}")).isEqualTo("é");
        assertThat(decoder.complete()).isTrue();
    }

    @Test
    void onlyTheFirstTopLevelOccurrenceCountsAndTextAfterTheObjectIsIgnored() {
        assertThat(decode(List.of("{\"reply\": \"first\", \"reply\": \"second\"} {\"reply\": \"later\"}")))
                .isEqualTo("first");
        assertThat(decode(List.of("Here you go: {\"reply\": \"after chatter\"}")))
                .isEqualTo("after chatter");
    }

    @Test
    void aValueThatIsNotAStringGivesNoText() {
        JsonStringFieldDecoder decoder = new JsonStringFieldDecoder("reply");

        assertThat(decoder.feed("{\"reply\": {\"text\": \"nested\"}, \"other\": \"x\"}"))
                .isEmpty();
        assertThat(decoder.complete()).isFalse();
        assertThat(decode(List.of("{\"reply\": 42, \"x\": \"y\"}"))).isEmpty();
        assertThat(decode(List.of("{\"remember\": true}"))).isEmpty();
    }
}
