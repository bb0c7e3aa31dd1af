package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.openai.models.chat.completions.ChatCompletionCreateParams;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.SecondInstance;

import tools.jackson.databind.JsonNode;

/**
 * Two instances on one database behave as one service: each job runs once whichever instance queued it, the
 * reranker one instance trained is the one the other serves, a key revoked on one is refused by the other, and the
 * OpenAI-compatible and MCP endpoints of either see the same memory. (Idle sessions closed once:
 * IdleSessionCloseTest.)
 */
class TwoInstancesTest extends IntegrationTest {

    private static SecondInstance second;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ApplicationContext context;

    private Api other;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void startTheSecondInstance() {
        if (second == null) {
            second = SecondInstance.start();
        }
        other = second.api();
    }

    @AfterAll
    static void stopTheSecondInstance() {
        if (second != null) {
            second.close();
            second = null;
        }
    }

    private static List<Api> both(Api first, Api second) {
        return List.of(first, second);
    }

    private boolean summaryDone(String key, String session) {
        return api.get(key, "/sessions/" + session)
                .body()
                .path("jobs")
                .toString()
                .contains("\"done\"");
    }

    private int summariesOf(String key, String userId) {
        return ofKind(api.get(key, "/memory?userId=" + userId + "&kind=summary"), "summary")
                .size();
    }

    @Test
    void jobsQueuedOnOneInstanceRunOnTheOtherAndEveryJobRunsOnceWhenBothTakeThem() {
        String key = api.newTenant();
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions(tag),
                call -> Answer.delayed(
                        Duration.ofMillis(300), FakeOpenAiServer.sessionSummary("The user grows tomatoes.")));

        // While this instance takes no jobs, the other runs what this one's requests queued.
        SmartLifecycle runner = context.getBean("jobRunner", SmartLifecycle.class);
        runner.stop();
        List<String> queuedHere = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                String session = api.newSession(key, "early" + i, null);
                api.importTurns(key, session, "I grow beans, row " + i + " " + tag, "Lovely.");
                assertThat(api.close(key, session).status()).isEqualTo(202);
                queuedHere.add(session);
            }
            eventually().until(() -> queuedHere.stream().allMatch(s -> summaryDone(key, s)));
        } finally {
            runner.start();
        }

        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Api via = both(api, other).get(i % 2);
            String session = via.newSession(key, "u" + i, null);
            via.importTurns(key, session, "I grow tomatoes, plot " + i + " " + tag, "Lovely.");
            assertThat(via.close(key, session).status()).isEqualTo(202);
            sessions.add(session);
        }

        eventually()
                .atMost(Duration.ofSeconds(30))
                .until(() -> sessions.stream().allMatch(s -> summaryDone(key, s)));
        List<ChatCall> summaryCalls =
                fake.calls(c -> c.is(Step.SESSION_SUMMARY) && c.mentions("tomatoes, plot") && c.mentions(tag));
        assertThat(summaryCalls).as("one summary call per session").hasSize(16);
        for (int i = 0; i < 16; i++) {
            assertThat(summariesOf(key, "u" + i)).as("u%s's summaries", i).isEqualTo(1);
        }
        // Each instance runs two jobs at once (memoir.jobs.threads): more than two calls under way at one moment
        // means both instances were running jobs.
        assertThat(mostAtOnce(summaryCalls, Duration.ofMillis(300))).isGreaterThan(2);
    }

    /** The most calls that were under way at one moment, each taking the given time from when it was received. */
    private static int mostAtOnce(List<ChatCall> calls, Duration each) {
        int most = 0;
        for (ChatCall call : calls) {
            Instant at = call.receivedAt();
            int underWay = (int) calls.stream()
                    .filter(c -> !c.receivedAt().isAfter(at)
                            && c.receivedAt().plus(each).isAfter(at))
                    .count();
            most = Math.max(most, underWay);
        }
        return most;
    }

    private int modelVersionOf(String replyTurnId) {
        return jdbc.sql("select model_version from reranker_feedback where turn_id = ?")
                .param(UUID.fromString(replyTurnId))
                .query(Integer.class)
                .single();
    }

    @Test
    void theRerankerOneInstanceTrainedOrResetIsTheOneTheOtherServesAtOnce() {
        String key = api.newTenant();
        String rerank = "{\"write\": [\"history\"], \"read\": [\"history\"], \"rerank\": true}";
        String session = api.sessionAfterClosedOne(
                key,
                "tom",
                rerank,
                "I play the violin",
                "Lovely.",
                "My sister lives in Oslo",
                "Nice city.",
                "I am vegetarian",
                "Noted.");
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": false, \"citations\": [1]}"));

        for (int i = 0; i < 4; i++) {
            assertThat(both(api, other)
                            .get(i % 2)
                            .chat(key, session, "Tell me about me " + i + " " + tag)
                            .status())
                    .isEqualTo(200);
        }
        eventually()
                .until(() -> api.get(key, "/reflection/reranker")
                                .body()
                                .path("version")
                                .asInt()
                        == 1);

        assertThat(modelVersionOf(other.chat(key, session, "And now? " + tag).text("turnId")))
                .as("the other instance serves the trained version")
                .isEqualTo(1);
        assertThat(other.send("POST", "/reflection/reranker/reset", key, null)
                        .body()
                        .path("version")
                        .asInt())
                .isEqualTo(2);
        assertThat(modelVersionOf(
                        api.chat(key, session, "And after the reset? " + tag).text("turnId")))
                .as("this instance serves the version the other reset")
                .isEqualTo(2);
    }

    @Test
    void aKeyRevokedThroughOneInstanceIsRefusedByTheOtherAtOnce() {
        JsonNode tenant = api.createTenant("two-" + tag).body();
        String key = tenant.path("apiKey").asString();
        assertThat(other.get(key, "/sessions?userId=u").status()).isEqualTo(200);
        String keyId = items(api.get(
                        Api.BOOTSTRAP_KEY, "/admin/tenants/" + tenant.path("id").asString() + "/keys"))
                .getFirst()
                .path("id")
                .asString();

        assertThat(api.send(
                                "DELETE",
                                "/admin/tenants/" + tenant.path("id").asString() + "/keys/" + keyId,
                                Api.BOOTSTRAP_KEY,
                                null)
                        .status())
                .isEqualTo(200);

        assertThat(other.get(key, "/sessions?userId=u").status()).isEqualTo(401);
    }

    @Test
    void theOpenAiEndpointsOfBothInstancesContinueOneConversationAndFirstRequestsAtOnceMakeOneSession()
            throws Exception {
        String key = api.newTenant();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"Noted.\", \"remember\": false, \"citations\": []}"));

        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> replies = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                var client = both(api, other).get(i % 2).openAi(key);
                int n = i;
                replies.add(pool.submit(() -> client.chat()
                        .completions()
                        .create(ChatCompletionCreateParams.builder()
                                .model("any")
                                .user("ana")
                                .addUserMessage("Message " + n + " " + tag)
                                .build())
                        .choices()
                        .getFirst()
                        .message()
                        .content()
                        .orElse("")));
            }
            for (Future<String> reply : replies) {
                assertThat(reply.get()).isEqualTo("Noted.");
            }
        }

        List<JsonNode> sessions = items(other.get(key, "/sessions?userId=ana"));
        assertThat(sessions)
                .as("one conversation, whichever instance each request reached")
                .hasSize(1);
        assertThat(api.get(key, "/sessions/" + sessions.getFirst().path("id").asString())
                        .body()
                        .path("turns"))
                .hasSize(12);
    }

    @Test
    void aMemoryAddedThroughOneInstancesMcpIsFoundThroughTheOthers() {
        String key = api.newTenant();
        try (McpSyncClient first = api.mcp(key);
                McpSyncClient last = other.mcp(key)) {
            var added = first.callTool(
                    new CallToolRequest("add_memory", Map.of("userId", "bea", "text", "Bea keeps bees in " + tag)));
            assertThat(added.isError()).isNotEqualTo(Boolean.TRUE);

            var found = last.callTool(new CallToolRequest(
                    "search_memory", Map.of("userId", "bea", "query", "Where are the bees kept? " + tag)));
            assertThat(((TextContent) found.content().getFirst()).text()).contains("Bea keeps bees in " + tag);
        }
    }
}
