package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import dev.memoir.llm.TokenCounter;
import dev.memoir.support.Api;
import dev.memoir.support.Json;
import dev.memoir.support.LlamaServer;
import dev.memoir.support.Prose;
import dev.memoir.support.RecordingProxy;
import dev.memoir.support.TestDatabase;

import tools.jackson.databind.JsonNode;

/**
 * Memoir against llama.cpp's own OpenAI-compatible server (llama-server on 2 threads, serving the tests' stand-in
 * model: untrained weights, a real vocabulary and chat template), with the settings docs/running.md gives for it:
 * a context of 8192 tokens per request (memoir.model.context-tokens) and three slots of that size. A recording
 * proxy between them keeps what each request asked and what the server answered.
 * <p>
 * It checks integration, not content: every preset chats (streamed too), closes and gets every memory job done;
 * reasoning, feedback, the OpenAI-compatible endpoint (plain and streamed) and MCP's chat tool answer; a long
 * imported dialogue and a long message are read within the context. After every test, every request the server
 * saw named the configured model and temperature and an answer limit, was answered 200, and fit the context by
 * the server's own count of its tokens. It runs in a JVM of its own (see the pom), so that no other application
 * context shares its database's job queue.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RealModelServerTest {

    private static final int CONTEXT = 8192;
    private static final int SLOTS = 3;
    private static final String MODEL = "memoir-standin";
    private static final double TEMPERATURE = 0.7;
    private static final List<String> PRESETS =
            List.of("conditional", "conditional+summary", "multi-view", "memochat", "recursive", "rmm", "all");

    private static final LlamaServer LLAMA = LlamaServer.start(CONTEXT, SLOTS, MODEL);
    private static final RecordingProxy PROXY = new RecordingProxy(LLAMA.baseUrl());

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestDatabase.instance().register(registry);
        registry.add("spring.ai.openai.base-url", PROXY::baseUrl);
        registry.add("spring.ai.openai.api-key", () -> "none");
        registry.add("spring.ai.openai.chat.model", () -> MODEL);
        registry.add("spring.ai.openai.chat.temperature", () -> Double.toString(TEMPERATURE));
        registry.add("memoir.model.context-tokens", () -> Integer.toString(CONTEXT));
        registry.add("memoir.security.bootstrap-key", () -> Api.BOOTSTRAP_KEY);
        registry.add("memoir.jobs.polling-interval", () -> "200ms");
        registry.add("memoir.jobs.first-retry-delay", () -> "1s");
        registry.add("memoir.session.idle-check-every", () -> "1h");
    }

    @AfterAll
    static void stopServers() {
        PROXY.close();
        LLAMA.close();
        report(PROXY.exchanges());
    }

    /**
     * Per step: requests, the largest request (prompt and answer limit) against the context, and the server's
     * prompt tokens per token as Memoir counts them (what memoir.model.tokenizer-ratio must cover).
     */
    private static void report(List<RecordingProxy.Exchange> exchanges) {
        TokenCounter counter = new TokenCounter();
        Map<String, List<RecordingProxy.Exchange>> byStep =
                new TreeMap<>(exchanges.stream().collect(Collectors.groupingBy(RecordingProxy.Exchange::step)));
        System.out.println("RealModelServerTest: " + exchanges.size() + " requests to llama-server (context " + CONTEXT
                + " per request)");
        byStep.forEach((step, calls) -> {
            int largest = calls.stream()
                    .mapToInt(c -> c.promptTokens() + c.maxTokens())
                    .max()
                    .orElse(0);
            double ratio = calls.stream()
                    .mapToDouble(c -> c.promptTokens() / (double) Math.max(1, counter.count(c.messages())))
                    .max()
                    .orElse(0);
            System.out.printf(
                    "  %-20s %4d requests, largest %5d tokens (%3.0f%% of the context), server/counted "
                            + "prompt tokens at most %.2f%n",
                    step, calls.size(), largest, 100.0 * largest / CONTEXT, ratio);
        });
    }

    @LocalServerPort
    private int port;

    private Api api;
    private String key;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void connect() {
        api = new Api(port);
        key = api.newTenant();
    }

    /**
     * What the server saw: every request named the configured model, temperature and an answer limit, was answered,
     * and held no more than the context, prompt and answer limit together, as the server counted its tokens.
     */
    @AfterEach
    void everyRequestWasOneTheServerAcceptedWithinTheContext() {
        List<RecordingProxy.Exchange> exchanges = PROXY.exchanges();
        assertThat(exchanges).isNotEmpty().allSatisfy(exchange -> {
            assertThat(exchange.status())
                    .as(exchange.step() + ": " + exchange.error())
                    .isEqualTo(200);
            assertThat(exchange.model()).as(exchange.step()).isEqualTo(MODEL);
            assertThat(exchange.temperature()).as(exchange.step()).isEqualTo(TEMPERATURE);
            assertThat(exchange.maxTokens()).as(exchange.step()).isNotNull();
            assertThat(exchange.promptTokens())
                    .as(exchange.step() + ": the server's usage")
                    .isNotNull();
            assertThat(exchange.promptTokens() + exchange.maxTokens())
                    .as(exchange.step())
                    .isLessThanOrEqualTo(CONTEXT);
        });
    }

    @Test
    void everyPresetChatsClosesAndGetsEveryMemoryJobDone() {
        Map<String, String> sessions = new TreeMap<>();
        for (String preset : PRESETS) {
            String session = api.newSession(key, "user-" + preset, Json.object("strategy", preset));
            sessions.put(preset, session);
            chat(session, "Hi! My name is Alice and I live in Porto " + tag);
            chat(session, "I am a vegetarian and I cook every Sunday.");
            streamedChat(session, "What could I cook this weekend?");
            chat(session, "Thanks, I will try that with my sister Maria.");
            assertThat(api.close(key, session).status()).as(preset).isEqualTo(202);
        }
        // Every preset but conditional writes at close; conditional's jobs are the messages the model chose to
        // remember.
        sessions.forEach((preset, session) -> awaitJobsDone(session, !preset.equals("conditional")));
        assertThat(api.get(key, "/memory?userId=user-all&limit=100").body().path("items"))
                .isNotEmpty();
    }

    @Test
    void reasoningAndFeedbackOnItsReplyRunOnTheServer() {
        String session = api.newSession(key, "rea", "{\"strategy\": \"conditional\"}");
        chat(session, "My sister's band was formed in Lisbon " + tag);
        Api.Response reasoned = api.send(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", "Where was my sister's band formed?", "reasoning", true));
        assertThat(reasoned.status()).as(reasoned.raw()).isEqualTo(200);
        String turnId = reasoned.text("turnId");

        Api.Response hint = api.send(
                "POST",
                "/reflection/feedback",
                key,
                Json.object(
                        "turnId", turnId, "verdict", "incorrect", "hint", "It was formed in the capital of Portugal."));
        assertThat(hint.status()).as(hint.raw()).isEqualTo(200);
        Api.Response answer = api.send(
                "POST", "/reflection/feedback", key, Json.object("turnId", turnId, "answer", "Porto, not Lisbon."));
        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        assertThat(answer.body().path("outcome").asString()).isEqualTo("resolved");
    }

    @Test
    void openAiCompatibleAndMcpClientsAreAnswered() {
        ChatCompletion plain = api.openAi(key)
                .chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("oai")
                        .addUserMessage("Hello, I play the violin " + tag)
                        .build());
        assertThat(plain.choices().getFirst().message().content())
                .hasValueSatisfying(text -> assertThat(text).isNotBlank());
        assertThat(plain.model()).isNotBlank();

        StringBuilder streamed = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = api.openAi(key)
                .chat()
                .completions()
                .createStreaming(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("oai")
                        .addUserMessage("Hello, I play the violin " + tag)
                        .addAssistantMessage(
                                plain.choices().getFirst().message().content().orElseThrow())
                        .addUserMessage("What do I play?")
                        .build())) {
            stream.stream()
                    .forEach(chunk -> chunk.choices()
                            .forEach(choice -> choice.delta().content().ifPresent(streamed::append)));
        }
        assertThat(streamed.toString()).isNotBlank();

        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(
                        "http://127.0.0.1:" + port)
                .endpoint("/mcp")
                .httpRequestCustomizer(
                        (request, method, uri, body, context) -> request.header("Authorization", "Bearer " + key))
                .build();
        try (McpSyncClient mcp =
                McpClient.sync(transport).requestTimeout(Duration.ofMinutes(5)).build()) {
            mcp.initialize();
            CallToolResult result = mcp.callTool(new CallToolRequest(
                    "chat", Map.of("userId", "mcp", "message", "Remember that I take the train to work " + tag)));
            assertThat(result.isError())
                    .as(((TextContent) result.content().getFirst()).text())
                    .isFalse();
        }
    }

    @Test
    void aLongDialogueAndALongMessageAreReadWithinTheContext() {
        int before = PROXY.exchanges().size();
        String session = api.newSession(key, "long", "{\"strategy\": \"all\"}");
        List<String> turns = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            turns.add(Prose.words(i, 2500));
        }
        assertThat(api.importTurns(key, session, turns.toArray(String[]::new)).status())
                .isEqualTo(201);
        chat(session, Prose.words(7, 3000));
        assertThat(api.close(key, session).status()).isEqualTo(202);
        awaitJobsDone(session, true);
        // The budgets were put to the test: some request came close to the context, by the server's count.
        List<RecordingProxy.Exchange> exchanges = PROXY.exchanges();
        assertThat(exchanges.subList(before, exchanges.size()).stream()
                        .mapToInt(exchange -> exchange.promptTokens() + exchange.maxTokens())
                        .max()
                        .orElse(0))
                .isGreaterThan(CONTEXT * 3 / 4);
    }

    private void chat(String session, String message) {
        Api.Response reply = api.chat(key, session, message);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.text("reply")).isNotBlank();
    }

    /** A reply streamed as server-sent events: deltas, then the stored reply. */
    private void streamedChat(String session, String message) {
        HttpResponse<String> response = api.sendWithHeaders(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", message),
                "Accept",
                "text/event-stream");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body())
                .contains("event:delta")
                .contains("event:reply")
                .doesNotContain("event:error");
    }

    /**
     * Waits until every memory job of the session is done (and there is one, when {@code some} says the session
     * queues jobs whatever the model answers); one that failed for good fails the test at once.
     */
    private void awaitJobsDone(String session, boolean some) {
        Awaitility.await()
                .atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    JsonNode jobs = api.get(key, "/sessions/" + session).body().path("jobs");
                    for (JsonNode job : jobs) {
                        assertThat(job.path("state").asString())
                                .as(job.toString())
                                .isNotEqualTo("failed");
                    }
                    return (!some || !jobs.isEmpty())
                            && jobs.valueStream()
                                    .allMatch(
                                            job -> job.path("state").asString().equals("done"));
                });
    }
}
