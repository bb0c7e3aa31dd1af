package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Prose;

class PromptFitterTest {

    private static final String TEMPLATE = "Question: {{question}}\nMemories:\n{{memories}}\nLines: {{lines}}";

    private final TokenCounter tokens = new TokenCounter();
    private final PromptFitter fitter = new PromptFitter(tokens);

    @Test
    void aPromptThatFitsIsSentAsItIs() {
        PromptValues values = PromptValues.create()
                .text("question", "Where do I live?")
                .items("memories", List.of("The user lives in Porto.", "The user cooks."), "\n", "(none)")
                .fixed("lines", "2");

        PromptFitter.Fitted fitted = fitter.fit("step", TEMPLATE, values, 1000);

        assertThat(fitted.shortened()).isFalse();
        assertThat(fitted.prompt())
                .isEqualTo("Question: Where do I live?\nMemories:\nThe user lives in Porto.\n"
                        + "The user cooks.\nLines: 2");
        assertThat(fitted.tokens()).isEqualTo(tokens.count(fitted.prompt()));
    }

    @Test
    void theLongestPartsAreCutToOneLengthAndTheShortOnesKeptWhole() {
        String longOne = Prose.words(1, 800);
        String longTwo = Prose.words(2, 600);
        PromptValues values = PromptValues.create()
                .text("question", "Where do I live?")
                .items("memories", List.of(longOne, "The user cooks.", longTwo), "\n", "(none)")
                .fixed("lines", "12345");

        PromptFitter.Fitted fitted = fitter.fit("step", TEMPLATE, values, 500);

        assertThat(fitted.shortened()).isTrue();
        assertThat(fitted.tokens()).isLessThanOrEqualTo(500).isGreaterThan(450);
        String[] memories = fitted.values().get("memories").split("\n");
        assertThat(memories).hasSize(3);
        assertThat(memories[1]).isEqualTo("The user cooks.");
        assertThat(memories[0]).endsWith("…").startsWith(longOne.substring(0, 100));
        assertThat(memories[2]).endsWith("…").startsWith(longTwo.substring(0, 100));
        assertThat(Math.abs(tokens.count(memories[0]) - tokens.count(memories[2])))
                .isLessThanOrEqualTo(2);
        assertThat(fitted.values())
                .containsEntry("question", "Where do I live?")
                .containsEntry("lines", "12345");
    }

    @Test
    void aTemplateThatCannotFitEvenEmptyIsAConfigurationError() {
        PromptValues values = PromptValues.create()
                .text("question", "Where?")
                .items("memories", List.of(), "\n", "")
                .fixed("lines", "1");

        assertThatThrownBy(() -> fitter.fit("step", TEMPLATE, values, 5))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memoir.model.context-tokens");
    }
}
