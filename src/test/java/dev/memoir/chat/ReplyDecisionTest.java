package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.memoir.llm.LenientJson;
import dev.memoir.llm.ModelAnswer;

class ReplyDecisionTest {

    private static ModelAnswer answer(String text) {
        return new ModelAnswer(text, LenientJson.object(text));
    }

    @Test
    void readsTheReplyAndTheRememberDecision() {
        assertThat(ReplyDecision.from(answer("{\"reply\": \"Hello\", \"remember\": \"yes\"}")))
                .contains(new ReplyDecision("Hello", true));
    }

    @Test
    void aMissingDecisionMeansNotRemembering() {
        assertThat(ReplyDecision.from(answer("{\"reply\": \"Hello\"}"))).contains(new ReplyDecision("Hello", false));
    }

    @Test
    void plainTextIsTakenAsTheReply() {
        assertThat(ReplyDecision.from(answer("  Just text.  "))).contains(new ReplyDecision("Just text.", false));
    }

    @Test
    void anEmptyAnswerGivesNoReply() {
        assertThat(ReplyDecision.from(answer("   "))).isEmpty();
    }
}
