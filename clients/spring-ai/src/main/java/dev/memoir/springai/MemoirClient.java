package dev.memoir.springai;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Memoir's REST API as the Spring AI pieces use it: the reply's memory context, sessions and their turns, and
 * memories. Every failure is a {@link MemoirException} carrying Memoir's error code; a 429 or 503 is retried after
 * the {@code Retry-After} it gives. Each request is observed as {@code memoir.client.requests}, tagged with its
 * {@code operation} and {@code outcome}.
 */
public class MemoirClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Messages Memoir takes in one request. */
    static final int MOST_MESSAGES = 1000;

    private final RestClient rest;
    private final MemoirClientProperties properties;
    private final ObservationRegistry observations;
    private final Sleeper sleeper;

    public MemoirClient(
            RestClient.Builder builder, MemoirClientProperties properties, ObservationRegistry observations) {
        this(builder, properties, observations, Thread::sleep);
    }

    MemoirClient(
            RestClient.Builder builder,
            MemoirClientProperties properties,
            ObservationRegistry observations,
            Sleeper sleeper) {
        Objects.requireNonNull(properties.url(), "memoir.client.url: Memoir's base URL");
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(properties.timeout()).build());
        requests.setReadTimeout(properties.timeout());
        this.rest = builder.clone()
                .baseUrl(properties.url().toString())
                .requestFactory(requests)
                .defaultHeaders(headers -> {
                    if (properties.apiKey() != null && !properties.apiKey().isBlank()) {
                        headers.setBearerAuth(properties.apiKey());
                    }
                })
                .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> {
                    throw problem(response);
                })
                .build();
        this.properties = properties;
        this.observations = observations == null ? ObservationRegistry.NOOP : observations;
        this.sleeper = sleeper;
    }

    /**
     * The memory block Memoir's own reply would carry for this user and message, within the token budget.
     *
     * @param sessionId a session of the user whose memory settings apply, or null for the defaults
     */
    public MemoryContext context(String userId, String query, String sessionId, int tokenBudget) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("userId", userId);
        body.put("query", query);
        if (sessionId != null) {
            body.put("sessionId", sessionId);
        }
        body.put("tokenBudget", tokenBudget);
        MemoryContext context = call(
                "context",
                () -> rest.post()
                        .uri("/context")
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(body)
                        .retrieve()
                        .body(MemoryContext.class));
        if (context == null) {
            throw new MemoirException(0, MemoirException.UNREADABLE, "Memoir answered no context", null, null);
        }
        return context;
    }

    /** Records which numbered entries of a context the model's reply used, so that Memoir's reranker learns. */
    public void cite(String contextId, List<Integer> numbers) {
        call(
                "cite",
                () -> rest.post()
                        .uri("/context/{id}/citations", contextId)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(Map.of("numbers", numbers))
                        .retrieve()
                        .toBodilessEntity());
    }

    /** Starts a session of the user and answers its id. */
    public String startSession(String userId) {
        Identified session = call(
                "start-session",
                () -> rest.post()
                        .uri("/sessions")
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(Map.of("userId", userId))
                        .retrieve()
                        .body(Identified.class));
        if (session == null || session.id() == null) {
            throw new MemoirException(0, MemoirException.UNREADABLE, "Memoir answered no session id", null, null);
        }
        return session.id();
    }

    /**
     * Appends user and assistant turns to an open session, oldest first; Memoir learns from them as from its own
     * chats. A closed session answers {@code session-closed} (409).
     */
    public void appendTurns(String sessionId, List<Turn> turns) {
        call(
                "append-turns",
                () -> rest.post()
                        .uri("/sessions/{id}/turns", sessionId)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(Map.of("turns", turns))
                        .retrieve()
                        .toBodilessEntity());
    }

    /**
     * Adds messages after those the client's conversation holds, into its open session or a new one of the user;
     * Memoir writes memory from their dialogue. Sent in requests of at most {@value #MOST_MESSAGES} messages.
     */
    public void appendConversation(String conversationId, String userId, List<ConversationMessage> messages) {
        for (int from = 0; from < messages.size(); from += MOST_MESSAGES) {
            List<ConversationMessage> part = messages.subList(from, Math.min(messages.size(), from + MOST_MESSAGES));
            call(
                    "append-conversation",
                    () -> rest.post()
                            .uri("/conversations/{id}/messages", conversationId)
                            .contentType(MediaType.APPLICATION_JSON)
                            .body(Map.of("userId", userId, "messages", part))
                            .retrieve()
                            .toBodilessEntity());
        }
    }

    /** The conversation's latest {@code limit} messages, oldest first; none when Memoir has no such conversation. */
    public List<ConversationMessage> conversation(String conversationId, int limit) {
        try {
            Conversation conversation = call(
                    "read-conversation",
                    () -> rest.get()
                            .uri("/conversations/{id}/messages?limit={limit}", conversationId, limit)
                            .retrieve()
                            .body(Conversation.class));
            return conversation == null ? List.of() : conversation.messages();
        } catch (MemoirException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    /** The tenant's conversation ids, the most recently started first. */
    public List<String> conversationIds() {
        ConversationIds ids = call(
                "conversation-ids",
                () -> rest.get().uri("/conversations?limit=10000").retrieve().body(ConversationIds.class));
        return ids == null ? List.of() : ids.conversationIds();
    }

    /** Deletes the conversation with the memories written from it alone; nothing when there is no such one. */
    public void deleteConversation(String conversationId) {
        try {
            call(
                    "delete-conversation",
                    () -> rest.delete()
                            .uri("/conversations/{id}", conversationId)
                            .retrieve()
                            .toBodilessEntity());
        } catch (MemoirException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    /** Adds a fact about the user; the same text again is not stored twice. */
    public Memory remember(String userId, String text) {
        return call(
                "remember",
                () -> rest.post()
                        .uri("/memory")
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(Map.of("userId", userId, "text", text))
                        .retrieve()
                        .body(Memory.class));
    }

    /** The user's memories that best match the query, best first; without a query, the newest first. */
    public List<Memory> recall(String userId, String query, int limit) {
        return page(userId, query, limit, null).items();
    }

    /**
     * One page of the user's memories, newest first (or best first for a query); {@link MemoryPage#nextCursor} asks
     * for the next.
     */
    MemoryPage page(String userId, String query, int limit, String cursor) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("userId", userId);
        values.put("limit", limit);
        // Values go in as template variables, so that they are encoded ('+', '{', '&' are sent as themselves).
        StringBuilder template = new StringBuilder("/memory?userId={userId}&limit={limit}");
        if (query != null && !query.isBlank()) {
            values.put("query", query);
            template.append("&query={query}");
        }
        if (cursor != null) {
            values.put("cursor", cursor);
            template.append("&cursor={cursor}");
        }
        MemoryPage page = call(
                "recall",
                () -> rest.get().uri(template.toString(), values).retrieve().body(MemoryPage.class));
        return page == null ? new MemoryPage(List.of(), null) : page;
    }

    /** Deletes one memory of the tenant by its id. */
    public void forget(String memoryId) {
        call(
                "forget",
                () -> rest.delete().uri("/memory/{id}", memoryId).retrieve().toBodilessEntity());
    }

    private <T> T call(String operation, Supplier<T> request) {
        Observation observation = Observation.createNotStarted("memoir.client.requests", observations)
                .lowCardinalityKeyValue("operation", operation);
        return observation.observe(() -> {
            for (int attempt = 0; ; attempt++) {
                try {
                    T answer = request.get();
                    observation.lowCardinalityKeyValue("outcome", "success");
                    return answer;
                } catch (MemoirException e) {
                    Duration wait = retryWait(e, attempt);
                    if (wait == null) {
                        observation.lowCardinalityKeyValue("outcome", e.code());
                        throw e;
                    }
                    sleep(wait);
                } catch (ResourceAccessException e) {
                    observation.lowCardinalityKeyValue("outcome", MemoirException.UNREACHABLE);
                    throw new MemoirException(
                            0,
                            MemoirException.UNREACHABLE,
                            "Memoir at " + properties.url() + " could not be reached: " + e.getMessage(),
                            null,
                            e);
                } catch (RestClientException e) {
                    // An answer that is not Memoir's: a proxy's page, a redirect, a body that is not the JSON asked
                    // for.
                    observation.lowCardinalityKeyValue("outcome", MemoirException.UNREADABLE);
                    throw new MemoirException(
                            0,
                            MemoirException.UNREADABLE,
                            "Memoir at " + properties.url() + " gave an answer that could not be read: "
                                    + e.getMessage(),
                            null,
                            e);
                }
            }
        });
    }

    /** How long to wait before retrying, or null when the failure is not retried. */
    private Duration retryWait(MemoirException e, int attempt) {
        if ((e.status() != 429 && e.status() != 503) || attempt >= properties.maxRetries()) {
            return null;
        }
        Duration wait = e.retryAfter().orElse(Duration.ofSeconds(1));
        return wait.compareTo(properties.maxRetryWait()) > 0 ? null : wait;
    }

    private void sleep(Duration wait) {
        try {
            sleeper.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemoirException(0, "interrupted", "Interrupted while waiting to retry Memoir", null, e);
        }
    }

    private static MemoirException problem(ClientHttpResponse response) throws IOException {
        int status = response.getStatusCode().value();
        String body = new String(response.getBody().readNBytes(64 * 1024), StandardCharsets.UTF_8);
        String code = "http-" + status;
        String detail = body;
        try {
            JsonNode problem = JSON.readTree(body);
            if (problem != null && problem.hasNonNull("code")) {
                code = problem.get("code").asString();
            }
            if (problem != null && problem.hasNonNull("detail")) {
                detail = problem.get("detail").asString();
            }
        } catch (RuntimeException notJson) {
            // Not a problem detail (a proxy's page): the body itself says what went wrong.
        }
        return new MemoirException(
                status,
                code,
                "Memoir answered " + status + " " + code + ": " + detail,
                retryAfter(response.getHeaders()),
                null);
    }

    private static Duration retryAfter(HttpHeaders headers) {
        String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
        if (value == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(value.strip())));
        } catch (NumberFormatException httpDate) {
            return null;
        }
    }

    /** A user or assistant turn of a session. */
    public record Turn(String role, String content) {

        public static Turn user(String content) {
            return new Turn("user", content);
        }

        public static Turn assistant(String content) {
            return new Turn("assistant", content);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Identified(String id) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Conversation(List<ConversationMessage> messages) {

        Conversation {
            messages = messages == null ? List.of() : messages;
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record ConversationIds(List<String> conversationIds) {

        ConversationIds {
            conversationIds = conversationIds == null ? List.of() : conversationIds;
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record MemoryPage(List<Memory> items, String nextCursor) {

        MemoryPage {
            items = items == null ? List.of() : items;
        }
    }

    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }
}
