package dev.memoir.chat.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.LenientJson;

class ReplyDecisionTest {

    private static Optional<ReplyDecision> read(String json) {
        return ReplyDecision.read(LenientJson.object(json).orElseThrow());
    }

    @Test
    void readsTheReplyAndTheRememberDecision() {
        assertThat(read("{\"reply\": \"Hello\", \"remember\": \"yes\"}")).contains(new ReplyDecision("Hello", true));
    }

    @Test
    void aMissingDecisionMeansNotRemembering() {
        assertThat(read("{\"reply\": \"Hello\"}")).contains(new ReplyDecision("Hello", false));
    }

    @Test
    void anAnswerWithoutAReplyIsUnusable() {
        assertThat(read("{\"remember\": true, \"citations\": [1]}")).isEmpty();
        assertThat(read("{\"reply\": \"   \", \"remember\": true}")).isEmpty();
    }

    @Test
    void citationsOutOfIntRangeAreSkippedInsteadOfFailingTheReply() {
        assertThat(read("{\"reply\": \"Hi\", \"citations\": [2147483648, 1, \"99999999999\", 2]}"))
                .contains(new ReplyDecision("Hi", false, List.of(1, 2)));
    }
}
