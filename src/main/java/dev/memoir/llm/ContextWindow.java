package dev.memoir.llm;

import java.time.Duration;
import java.util.Map;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The model's context window and what it leaves for each prompt: every budget Memoir lays a prompt out in (the
 * reply's memory and recent dialogue, a whole session's parts, a step's values) derives from
 * {@code memoir.model.context-tokens}, less the answer's {@code memoir.model.answer-tokens}, scaled down by
 * {@code memoir.model.tokenizer-ratio} for the model's own tokenizer, less what a chat template adds around the
 * messages. Also sizes each request's timeout to the prompt it carries.
 */
@Component
public class ContextWindow {

    /** Tokens a chat template adds to a request: a BOS token, a default system header, the assistant's cue. */
    static final int REQUEST_OVERHEAD = 48;

    /** Tokens a chat template adds around each message (role markers, end of turn). */
    public static final int MESSAGE_OVERHEAD = 8;

    /** Below this many tokens left for its values, a step's prompt cannot do its work: the context is too small. */
    static final int MIN_ROOM = 256;

    private final ModelProperties properties;
    private final TokenCounter tokens;
    private final PromptTemplates templates;
    private final Duration baseTimeout;
    private final int answerTokens;

    ContextWindow(
            ModelProperties properties,
            TokenCounter tokens,
            PromptTemplates templates,
            ChatModel chatModel,
            @Value("${spring.ai.openai.timeout:60s}") Duration baseTimeout) {
        this.properties = properties;
        this.tokens = tokens;
        this.templates = templates;
        this.baseTimeout = baseTimeout;
        this.answerTokens = answerTokens(properties, chatModel.getOptions());
        for (String name : templates.names()) {
            int room = promptTokens(1)
                    - tokens.count(PromptTemplates.fill(name, templates.template(name), Map.of(), true));
            if (room < MIN_ROOM) {
                throw new IllegalStateException("memoir.model.context-tokens " + properties.contextTokens()
                        + " is too small: with answers of " + answerTokens + " tokens the prompt of step " + name
                        + " leaves only " + room + " tokens for what it reads (at least " + MIN_ROOM + " needed)");
            }
        }
    }

    /**
     * The answer limit sent with each request: memoir.model.answer-tokens, or a smaller max-tokens or
     * max-completion-tokens set for Spring AI's chat model.
     */
    private static int answerTokens(ModelProperties properties, ChatOptions defaults) {
        int limit = properties.answerTokens();
        if (defaults != null && defaults.getMaxTokens() != null) {
            limit = Math.min(limit, defaults.getMaxTokens());
        }
        if (defaults instanceof OpenAiChatOptions openAi && openAi.getMaxCompletionTokens() != null) {
            limit = Math.min(limit, openAi.getMaxCompletionTokens());
        }
        return Math.max(1, limit);
    }

    /** The server's tokens per request, prompt and answer together. */
    public int contextTokens() {
        return properties.contextTokens();
    }

    /** The most tokens one answer may take (sent as the request's max_tokens). */
    public int answerTokens() {
        return answerTokens;
    }

    /**
     * The most tokens, as {@link TokenCounter} counts them, that the messages of one request may hold together,
     * so that the prompt and a whole answer fit the context in the model's own tokens.
     */
    public int promptTokens(int messages) {
        return (int) Math.floor((properties.contextTokens() - answerTokens) / properties.tokenizerRatio())
                - REQUEST_OVERHEAD
                - MESSAGE_OVERHEAD * messages;
    }

    /** What a one-message prompt of the step leaves for the values not given, once the template holds the rest. */
    public int room(ModelStep<?> step, Map<String, String> given) {
        return promptTokens(1) - tokens.count(templates.skeleton(step, given));
    }

    /**
     * The most tokens, in the model's own count, that a request with a prompt of so many (counted) tokens can use:
     * the prompt at {@code tokenizer-ratio} and a whole answer, within the context.
     */
    long mostTokens(int promptTokens) {
        return Math.min(
                properties.contextTokens(),
                (long) Math.ceil(promptTokens * properties.tokenizerRatio()) + REQUEST_OVERHEAD + answerTokens);
    }

    /**
     * How long a request with a prompt of so many (counted) tokens may take: spring.ai.openai.timeout, plus the
     * prompt read and a whole answer written at the slowest speeds allowed.
     */
    Duration timeout(int promptTokens) {
        double seconds = promptTokens * properties.tokenizerRatio() / properties.promptTokensPerSecond()
                + (double) answerTokens / properties.answerTokensPerSecond();
        return baseTimeout.plusMillis((long) Math.ceil(seconds * 1000));
    }
}
