package dev.memoir.llm;

import java.util.HashMap;
import java.util.Map;

import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * The options each request goes out with: the chat model's configured ones ({@code spring.ai.openai.chat.*}) with
 * the step's own on top, so that {@link ChatModelClient} never sends a request without what was configured.
 */
final class RequestOptions {

    private final OpenAiChatOptions defaults;
    private final ContextWindow window;

    RequestOptions(ChatOptions configured, ContextWindow window) {
        this.defaults = configured(configured);
        this.window = window;
    }

    /**
     * The chat model's own options as Spring AI bound them. A prompt's options replace them rather than being
     * merged with them (Spring AI 2.0), so every request starts from a copy of these.
     */
    private static OpenAiChatOptions configured(ChatOptions options) {
        if (options instanceof OpenAiChatOptions openAi) {
            return openAi;
        }
        OpenAiChatOptions.Builder builder = OpenAiChatOptions.builder();
        if (options != null) {
            builder.model(options.getModel())
                    .temperature(options.getTemperature())
                    .topP(options.getTopP())
                    .maxTokens(options.getMaxTokens())
                    .stopSequences(options.getStopSequences())
                    .frequencyPenalty(options.getFrequencyPenalty())
                    .presencePenalty(options.getPresencePenalty());
        }
        return builder.build();
    }

    /** The model every request names ({@code spring.ai.openai.chat.model}). */
    String configuredModel() {
        return defaults.getDeploymentName() != null ? defaults.getDeploymentName() : defaults.getModel();
    }

    /**
     * The configured options with the step's on top. The answer limit goes out as max_completion_tokens where
     * Spring AI is configured with that (OpenAI's reasoning models refuse max_tokens), as max_tokens otherwise.
     */
    Prompt prompt(ModelRequest request, boolean streamed) {
        Map<String, String> headers = new HashMap<>();
        if (defaults.getCustomHeaders() != null) {
            headers.putAll(defaults.getCustomHeaders());
        }
        headers.put(ModelStep.HEADER, request.step().name());
        OpenAiChatOptions.Builder options =
                defaults.mutate().customHeaders(headers).timeout(request.timeout());
        if (defaults.getMaxCompletionTokens() != null) {
            options.maxTokens(null).maxCompletionTokens(window.answerTokens());
        } else {
            options.maxTokens(window.answerTokens());
        }
        if (request.schema() != null) {
            options.outputSchema(request.schema());
        }
        if (streamed) {
            options.streamUsage(true);
        }
        return new Prompt(request.messages(), options.build());
    }
}
