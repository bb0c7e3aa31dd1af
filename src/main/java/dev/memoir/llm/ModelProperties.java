package dev.memoir.llm;

import java.time.Duration;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What Memoir must know of the chat model server to keep every request within it ({@code memoir.model.*}). The
 * model and its sampling settings are Spring AI's ({@code spring.ai.openai.chat.*}); these say how much one request
 * may hold and how long it may take.
 *
 * @param contextTokens         tokens one request may hold, prompt and answer together: the server's context per
 *                              request (Ollama's num_ctx, vLLM's --max-model-len, llama.cpp's -c divided by -np).
 *                              Every prompt budget derives from it
 * @param answerTokens          the most tokens one answer may take, sent as max_tokens with every request and kept
 *                              free in every prompt's budget
 * @param tokenizerRatio        the model's tokens per token as Memoir counts them (OpenAI's cl100k_base): prompts are
 *                              budgeted as if they were this much longer, so that a model with a less frugal
 *                              tokenizer still fits. 1.25 covers the Llama 2, Mistral and Phi-3 tokenizers on
 *                              English dialogue; Llama 3 and Qwen count about as cl100k_base does
 * @param promptTokensPerSecond the slowest prompt reading the request timeout allows for: each request's timeout is
 *                              spring.ai.openai.timeout plus its prompt at this speed plus a whole answer at
 *                              {@code answerTokensPerSecond}, so that a CPU server reading a long prompt is waited for
 * @param answerTokensPerSecond the slowest writing the request timeout allows for
 * @param maxRetries            attempts after the first when the server is unreachable, overloaded or fails
 *                              (429, 5xx); never after a timeout, whose prompt the server may still be reading
 * @param retryDelay            the first retry's largest delay; each later one may wait twice as long, and each
 *                              waits a random part of it (full jitter), or what the server's Retry-After asks
 */
@Validated
@ConfigurationProperties("memoir.model")
record ModelProperties(
        @DefaultValue("8192") @Min(512) @Max(10_000_000) int contextTokens,
        @DefaultValue("1024") @Min(16) int answerTokens,

        @DefaultValue("1.25") @DecimalMin("1.0") @DecimalMax("4.0")
        double tokenizerRatio,

        @DefaultValue("50") @Min(1) int promptTokensPerSecond,
        @DefaultValue("5") @Min(1) int answerTokensPerSecond,
        @DefaultValue("2") @Min(0) @Max(10) int maxRetries,

        @DefaultValue("1s") @NotNull @DurationMin(millis = 1)
        Duration retryDelay) {

    /** An answer may take at most half the context, so that a prompt always has room. */
    @AssertTrue(message = "memoir.model.answer-tokens must be at most half of memoir.model.context-tokens")
    boolean isAnswerWithinContext() {
        return answerTokens * 2 <= contextTokens;
    }
}
