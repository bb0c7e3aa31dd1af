package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

import dev.memoir.common.web.Observed;
import dev.memoir.support.FakeOpenAiServer;

/**
 * Every request starts from the chat model's configured options, whatever they are, with the step's own on top;
 * and what the context leaves for a prompt, the answer limit and the timeout follow from memoir.model.*.
 */
class RequestOptionsTest {

    private final FakeOpenAiServer fake = FakeOpenAiServer.instance();
    private final TokenCounter tokens = new TokenCounter();
    private final PromptTemplates templates = new PromptTemplates();

    private static ModelProperties properties(int context, int answer) {
        return new ModelProperties(context, answer, 1.25, 50, 5, 0, Duration.ofMillis(10));
    }

    private static OpenAiChatModel model(OpenAiChatOptions.Builder options) {
        return OpenAiChatModel.builder()
                .options(options.baseUrl(FakeOpenAiServer.instance().baseUrl())
                        .apiKey("test-key")
                        .maxRetries(0)
                        .build())
                .build();
    }

    private ChatModelClient client(OpenAiChatModel chatModel, ModelProperties properties) {
        return new ChatModelClient(
                chatModel,
                window(chatModel, properties),
                templates,
                tokens,
                properties,
                new SimpleMeterRegistry(),
                new Observed(ObservationRegistry.NOOP),
                List.of(),
                List.of());
    }

    private ContextWindow window(OpenAiChatModel chatModel, ModelProperties properties) {
        return new ContextWindow(properties, tokens, templates, chatModel, Duration.ofSeconds(60));
    }

    @Test
    void everyConfiguredOptionReachesTheRequestWithTheStepsOwnOnTop() {
        OpenAiChatModel chatModel = model(OpenAiChatOptions.builder()
                .model(FakeOpenAiServer.MODEL)
                .temperature(0.4)
                .topP(0.9)
                .seed(42)
                .presencePenalty(0.5)
                .customHeaders(Map.of("X-Team", "memory")));
        String marker = "options-" + UUID.randomUUID();

        client(chatModel, properties(8192, 512))
                .ask(
                        ModelStep.text("session-summary"),
                        Map.of("dialogue", marker, "earlier", "(nothing)", "earlierInstructions", "(none)"));

        FakeOpenAiServer.ChatCall call = fake.calls(c -> c.mentions(marker)).getFirst();
        assertThat(call.model()).isEqualTo(FakeOpenAiServer.MODEL);
        assertThat(call.temperature()).isEqualTo(0.4);
        assertThat(call.body().path("top_p").asDouble()).isEqualTo(0.9);
        assertThat(call.body().path("seed").asInt()).isEqualTo(42);
        assertThat(call.body().path("presence_penalty").asDouble()).isEqualTo(0.5);
        assertThat(call.body().path("max_tokens").asInt()).isEqualTo(512);
        assertThat(call.stepTag()).isEqualTo("session-summary");
    }

    @Test
    void aSmallerConfiguredLimitWinsAndMaxCompletionTokensIsSentWhereConfigured() {
        OpenAiChatModel reasoning =
                model(OpenAiChatOptions.builder().model(FakeOpenAiServer.MODEL).maxCompletionTokens(300));
        String marker = "completion-" + UUID.randomUUID();

        client(reasoning, properties(8192, 1024)).stream(
                ModelStep.text("r3-inference"), List.of(new UserMessage(marker)), Map.of(), piece -> {});

        FakeOpenAiServer.ChatCall call = fake.calls(c -> c.mentions(marker)).getFirst();
        assertThat(call.body().has("max_tokens")).isFalse();
        assertThat(call.body().path("max_completion_tokens").asInt()).isEqualTo(300);
        assertThat(window(model(OpenAiChatOptions.builder().maxTokens(200)), properties(8192, 1024))
                        .answerTokens())
                .isEqualTo(200);
    }

    @Test
    void thePromptGetsTheContextLessTheAnswerScaledForTheModelsTokenizerAndTheTimeoutGrowsWithIt() {
        ContextWindow window = window(model(OpenAiChatOptions.builder()), properties(8192, 1024));

        assertThat(window.promptTokens(1))
                .isEqualTo((int) Math.floor((8192 - 1024) / 1.25)
                        - ContextWindow.REQUEST_OVERHEAD
                        - ContextWindow.MESSAGE_OVERHEAD);
        assertThat(window.promptTokens(3)).isEqualTo(window.promptTokens(1) - 2 * ContextWindow.MESSAGE_OVERHEAD);
        // 60 s, plus 4,000 counted tokens (5,000 of the model's) at 50 a second, plus 1,024 at 5 a second.
        assertThat(window.timeout(4000)).isEqualTo(Duration.ofSeconds(60).plusMillis(100_000 + 204_800));
    }

    @Test
    void aContextTooSmallForAStepsInstructionsStopsTheServiceWithTheReason() {
        Assertions.assertThatThrownBy(() -> window(model(OpenAiChatOptions.builder()), properties(1024, 512)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memoir.model.context-tokens 1024");
    }
}
