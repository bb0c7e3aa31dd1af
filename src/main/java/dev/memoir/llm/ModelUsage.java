package dev.memoir.llm;

import java.time.Duration;

/**
 * What one request to a model used: a chat-completions request (one attempt: a retried call is several) or one
 * batch of texts embedded. The tokens are the server's count where its answer reports one ({@code countedByServer}),
 * else Memoir's own (cl100k_base, the prompt as laid out and the answer as read); a failed request counts none.
 *
 * @param step the pipeline step's label ({@code reply}, {@code memo}, ...) or {@code embedding-query} /
 *     {@code embedding-document}
 */
public record ModelUsage(
        Kind kind,
        String step,
        String model,
        long promptTokens,
        long completionTokens,
        boolean countedByServer,
        Duration duration,
        boolean failed) {

    public enum Kind {
        CHAT,
        EMBEDDING
    }
}
