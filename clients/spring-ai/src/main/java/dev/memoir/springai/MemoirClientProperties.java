package dev.memoir.springai;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where Memoir runs and how the client uses it ({@code memoir.client.*}).
 *
 * @param url Memoir's base URL, for example {@code http://localhost:8080}; the client is configured only when set
 * @param apiKey a tenant's API key, sent as a bearer token
 * @param tokenBudget the most memory tokens the advisor adds to a request (Memoir counts them as cl100k_base does)
 * @param onFailure what the advisor does when Memoir cannot give the memory before a call: {@code fail} throws
 *     {@link MemoirException}; {@code continue} logs it and lets the call go on without memory. An exchange that
 *     cannot be recorded after the call is logged either way, since the reply is already made
 * @param maxRetries how often a 429 or 503 is retried, after the {@code Retry-After} Memoir gives
 * @param maxRetryWait the longest wait before a retry; a longer {@code Retry-After} is not waited for
 * @param timeout the connect and read timeout of every request
 * @param chatMemoryRepository whether Spring AI's chat memory keeps its conversations in Memoir
 *     ({@link MemoirChatMemoryRepository}); the memory advisor then records nothing itself, since the conversation
 *     reaches Memoir through the chat memory
 */
@ConfigurationProperties("memoir.client")
public record MemoirClientProperties(
        URI url,
        String apiKey,
        @DefaultValue("1500") int tokenBudget,
        @DefaultValue("fail") OnFailure onFailure,
        @DefaultValue("2") int maxRetries,
        @DefaultValue("10s") Duration maxRetryWait,
        @DefaultValue("30s") Duration timeout,
        @DefaultValue("false") boolean chatMemoryRepository) {

    /** What the memory advisor does when Memoir cannot give or take memory. */
    public enum OnFailure {
        FAIL,
        CONTINUE
    }
}
