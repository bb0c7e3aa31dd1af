package dev.memoir.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;

/**
 * The whole service on a random port, against real PostgreSQL with pgvector and the scripted fake model over
 * HTTP. Every test class shares one application context; tests stay apart by using tenants of their own. The
 * context's spans can be captured ({@link CapturedSpans}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(CapturedSpans.Config.class)
public abstract class IntegrationTest {

    protected static final FakeOpenAiServer fake = FakeOpenAiServer.instance();

    @LocalServerPort
    private int port;

    protected Api api;

    private final List<FakeOpenAiServer.Rule> rules = new ArrayList<>();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        settings().forEach(registry::add);
    }

    /** The service's settings in tests: the test database, the fake model, short job and retry delays. */
    static Map<String, Supplier<Object>> settings() {
        Map<String, Supplier<Object>> settings = new LinkedHashMap<>();
        TestDatabase database = TestDatabase.instance();
        settings.put("spring.datasource.url", database::url);
        settings.put("spring.datasource.username", database::username);
        settings.put("spring.datasource.password", database::password);
        settings.put("spring.ai.openai.base-url", fake::baseUrl);
        settings.put("spring.ai.openai.api-key", () -> "test-key");
        // The fake serves this model alone and refuses any other, as Ollama and vLLM do.
        settings.put("spring.ai.openai.chat.model", () -> FakeOpenAiServer.MODEL);
        settings.put("spring.ai.openai.chat.temperature", () -> Double.toString(TEMPERATURE));
        settings.put("spring.ai.openai.timeout", () -> "3s");
        settings.put("spring.ai.openai.max-retries", () -> "0");
        settings.put("memoir.model.context-tokens", () -> Integer.toString(FakeOpenAiServer.CONTEXT_TOKENS));
        // Timeouts of spring.ai.openai.timeout alone: the fake answers at once unless a test delays it.
        settings.put("memoir.model.prompt-tokens-per-second", () -> "1000000");
        settings.put("memoir.model.answer-tokens-per-second", () -> "1000000");
        settings.put("memoir.model.retry-delay", () -> "50ms");
        settings.put("memoir.security.bootstrap-key", () -> Api.BOOTSTRAP_KEY);
        settings.put("memoir.jobs.polling-interval", () -> "200ms");
        settings.put("memoir.jobs.first-retry-delay", () -> "500ms");
        // Four runs in about 3.5 s: enough to show retries, short enough to see a job reach the dead-letter list.
        settings.put("memoir.jobs.max-retries", () -> "3");
        // Small enough that a test's long session is read in several parts.
        settings.put("memoir.writing.part-tokens", () -> "1000");
        settings.put("memoir.api.max-request-size", () -> "64KB");
        settings.put("memoir.memo.turns-per-memo", () -> "6");
        settings.put("memoir.reranker.batch-size", () -> "4");
        // Tests close idle sessions and purge memory themselves (IdleSessionCloseTest, RetentionTest), so that a
        // run on the job's clock does not take their sessions and memories from under them; RecurringJobsTest runs
        // both jobs on their own clock in a deployment of its own.
        settings.put("memoir.session.idle-check-every", () -> "1h");
        settings.put("memoir.retention.purge-interval", () -> "1h");
        // WebhookTest's receivers listen on 127.0.0.1, which is refused unless allowed; a slow one is cut at 1 s.
        settings.put("memoir.webhooks.allowed-hosts", () -> "127.0.0.1");
        settings.put("memoir.webhooks.timeout", () -> "1s");
        // Usage shows within a fraction of a second (tests that read it through the API wait for it).
        settings.put("memoir.usage.flush-every", () -> "200ms");
        // A budget set through one instance applies on a second one (TwoInstances) within a fraction of a second.
        settings.put("memoir.usage.budget-refresh", () -> "200ms");
        // A price for the fake's model (UsageReportTest): the in-process embedding model has none.
        settings.put("memoir.usage.prices.[" + FakeOpenAiServer.MODEL + "].input-per-million", () -> "2.50");
        settings.put("memoir.usage.prices.[" + FakeOpenAiServer.MODEL + "].output-per-million", () -> "10");
        return settings;
    }

    /** The temperature configured for the chat model, which every request must carry. */
    protected static final double TEMPERATURE = 0.3;

    private int untaggedBefore;
    private int refusedBefore;
    private int callsBefore;

    @BeforeEach
    void connect() {
        api = new Api(port);
        untaggedBefore = fake.untaggedRequests().size();
        refusedBefore = fake.refusedRequests().size();
        callsBefore = fake.calls().size();
    }

    @AfterEach
    void removeRules() {
        rules.forEach(fake::remove);
    }

    /** Every request to the model names its step; the fake refuses one that does not, and the test fails here. */
    @AfterEach
    void everyModelCallNamedItsStep() {
        List<String> untagged = fake.untaggedRequests();
        assertThat(untagged.subList(untaggedBefore, untagged.size()))
                .as("model calls without a step tag")
                .isEmpty();
    }

    /**
     * Every request carries the configured model and temperature and an answer limit, and fits the model's
     * context: the fake refuses any other as a real server would, and the test fails here.
     */
    @AfterEach
    void everyModelCallWasOneTheServerAccepts() {
        List<String> refused = fake.refusedRequests();
        assertThat(refused.subList(refusedBefore, refused.size()))
                .as("requests a real server refuses")
                .isEmpty();
        List<FakeOpenAiServer.ChatCall> calls = fake.calls();
        assertThat(calls.subList(Math.min(callsBefore, calls.size()), calls.size()))
                .allSatisfy(call -> {
                    assertThat(call.model()).as("model").isEqualTo(FakeOpenAiServer.MODEL);
                    assertThat(call.temperature()).as("temperature").isEqualTo(TEMPERATURE);
                    assertThat(call.maxTokens()).as("max_tokens").isNotNull().isPositive();
                });
    }

    /** For a test that sends the fake a request it refuses on purpose: what it sent so far is not a failure. */
    protected void forgetProvokedRequests() {
        refusedBefore = fake.refusedRequests().size();
        callsBefore = fake.calls().size();
    }

    /** Scripts the fake model for this test only. */
    protected void onModelCall(
            Predicate<FakeOpenAiServer.ChatCall> when,
            Function<FakeOpenAiServer.ChatCall, FakeOpenAiServer.Answer> answer) {
        rules.add(fake.on(when, answer));
    }

    protected static ConditionFactory eventually() {
        return Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100));
    }

    protected static List<JsonNode> items(Api.Response response) {
        List<JsonNode> items = new ArrayList<>();
        response.body().path("items").forEach(items::add);
        return items;
    }

    protected static List<JsonNode> ofKind(Api.Response response, String kind) {
        return items(response).stream()
                .filter(m -> m.path("kind").asString().equals(kind))
                .toList();
    }
}
