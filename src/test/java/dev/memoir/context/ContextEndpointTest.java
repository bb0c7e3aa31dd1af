package dev.memoir.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * POST /context answers the memory POST /chat places in its reply request, through the same seam: for the same user,
 * message and settings, the text is the reply request's memory block, entry for entry (issue 42).
 */
class ContextEndpointTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    /** A user with a history worth recalling: several sessions about a garden and a bike. */
    private String userWithHistory(String key, String user) {
        api.importTurns(
                key,
                api.newSession(key, user, null),
                "I planted tomatoes and basil by the south fence " + tag + ".",
                "Lovely, they like the sun.",
                "Always answer me in metric units.",
                "Noted.");
        api.importTurns(
                key,
                api.newSession(key, user, null),
                "My bike's rear brake squeaks when it rains " + tag + ".",
                "Try cleaning the rim and the pads.",
                "The tomatoes got blight after the storm " + tag + ".",
                "Remove the affected leaves and keep the foliage dry.");
        return user;
    }

    private Api.Response context(String key, Object... fields) {
        return api.send("POST", "/context", key, Json.object(fields));
    }

    @Test
    void theTextIsTheMemoryBlockOfTheReplyRequestForTheSameUserMessageAndSettings() {
        String key = api.newTenant();
        String user = userWithHistory(key, "gus-" + tag);
        String question = "What went wrong with my tomatoes? " + tag;
        Map<String, Object> settings = Map.of("promptTokenBudget", 600);

        Api.Response context = context(key, "userId", user, "query", question, "memory", settings);

        assertThat(context.status()).as(context.raw()).isEqualTo(200);
        String session = api.newSession(key, user, Json.object("promptTokenBudget", 600));
        Api.Response reply = api.chat(key, session, question);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        String system = fake.calls(c -> c.is(Step.REPLY) && c.lastUserMessage().equals(question))
                .getFirst()
                .systemPrompt();
        String text = context.text("text");
        assertThat(text).contains("blight").contains("Always answer me in metric units.");
        assertThat(system)
                .as("the reply request's memory block is the context's text")
                .contains("<memory>\n" + text + "\n</memory>");
        // Entry for entry: the chat's memories are the context's, pinned and numbered.
        List<String> given = reply.body()
                .path("memories")
                .valueStream()
                .map(m -> m.path("id").asString())
                .toList();
        List<String> shown = new java.util.ArrayList<>();
        context.body().path("pinned").forEach(p -> shown.add(p.path("id").asString()));
        context.body().path("entries").forEach(e -> shown.add(e.path("id").asString()));
        assertThat(shown).containsExactlyInAnyOrderElementsOf(given);
        JsonNode first = context.body().path("entries").get(0);
        assertThat(first.path("number").asInt()).isEqualTo(1);
        assertThat(text).contains("1. " + first.path("shown").asString());
        assertThat(context.body().path("tokens").asInt()).isPositive().isLessThanOrEqualTo(600);
        assertThat(context.body().path("tokenBudget").asInt()).isEqualTo(600);
    }

    @Test
    void theMcpToolAnswersWhatTheEndpointAnswers() {
        String key = api.newTenant();
        String user = userWithHistory(key, "hal-" + tag);
        String question = "Why does my bike squeak? " + tag;

        Api.Response rest = context(key, "userId", user, "query", question);
        McpSyncClient mcp = api.mcp(key);
        try {
            CallToolResult result =
                    mcp.callTool(new CallToolRequest("get_context", Map.of("userId", user, "query", question)));
            assertThat(result.isError()).isFalse();
            JsonNode tool = JSON.readTree(((TextContent) result.content().getFirst()).text());

            assertThat(tool.path("text").asString())
                    .isEqualTo(rest.text("text"))
                    .contains("rear brake squeaks");
            assertThat(tool.path("id").asString()).isNotEqualTo(rest.text("id"));
        } finally {
            mcp.close();
        }
    }

    @Test
    void theTraceNamesEachEntryAndRecordsWhatAReplyCited() {
        String key = api.newTenant();
        String user = userWithHistory(key, "ida-" + tag);
        Api.Response context = context(key, "userId", user, "query", "What did I plant by the fence? " + tag);
        String id = context.text("id");
        JsonNode entries = context.body().path("entries");
        assertThat(entries.size()).isGreaterThanOrEqualTo(2);

        Api.Response cited = api.send("POST", "/context/" + id + "/citations", key, Json.object("numbers", List.of(2)));

        assertThat(cited.status()).as(cited.raw()).isEqualTo(200);
        JsonNode trace = api.get(key, "/context/" + id).body();
        assertThat(trace.path("entries").get(1).path("memoryId").asString())
                .isEqualTo(entries.get(1).path("id").asString());
        assertThat(trace.path("entries").get(1).path("cited").asBoolean()).isTrue();
        assertThat(trace.path("entries").get(0).path("cited").asBoolean()).isFalse();
        assertThat(trace.path("userId").asString()).isEqualTo(user);

        Api.Response outside = api.send(
                "POST", "/context/" + id + "/citations", key, Json.object("numbers", List.of(1, entries.size() + 1)));
        assertThat(outside.status()).isEqualTo(400);
        assertThat(outside.body().path("errors").get(0).path("field").asString())
                .isEqualTo("numbers[1]");
        assertThat(api.get(api.newTenant(), "/context/" + id).status())
                .as("another tenant's context is not found")
                .isEqualTo(404);
    }

    @Test
    void theLastUserMessageIsTheQueryAndARecentTurnOfTheSessionIsNotShownAgain() {
        String key = api.newTenant();
        String user = userWithHistory(key, "jo-" + tag);
        String session = api.newSession(key, user, null);
        api.importTurns(key, session, "The basil is flowering already " + tag + ".", "Pinch the flowers off.");

        Api.Response withRecent = context(
                key,
                "userId",
                user,
                "sessionId",
                session,
                "messages",
                List.of(
                        Map.of("role", "user", "content", "The basil is flowering already " + tag + "."),
                        Map.of("role", "assistant", "content", "Pinch the flowers off."),
                        Map.of("role", "user", "content", "What should I do about my basil? " + tag)));
        Api.Response withoutRecent = context(
                key,
                "userId",
                user,
                "sessionId",
                session,
                "excludeRecentTurns",
                2,
                "messages",
                List.of(Map.of("role", "user", "content", "What should I do about my basil? " + tag)));

        assertThat(withRecent.status()).as(withRecent.raw()).isEqualTo(200);
        assertThat(withRecent.text("text")).contains("The basil is flowering already");
        assertThat(withoutRecent.status()).as(withoutRecent.raw()).isEqualTo(200);
        assertThat(withoutRecent.text("text")).doesNotContain("The basil is flowering already");
        assertThat(withoutRecent.text("sessionId")).isEqualTo(session);
    }

    @Test
    void aWrongRequestIsRefusedNamingWhatWasWrong() {
        String key = api.newTenant();
        String session = api.newSession(key, "kim", null);

        assertThat(field(context(key, "userId", "kim"))).isEqualTo("query");
        assertThat(field(context(
                        key,
                        "userId",
                        "kim",
                        "query",
                        "hello",
                        "messages",
                        List.of(Map.of("role", "user", "content", "hi")))))
                .isEqualTo("query");
        assertThat(field(context(
                        key, "userId", "kim", "messages", List.of(Map.of("role", "assistant", "content", "Hi!")))))
                .isEqualTo("messages");
        assertThat(field(context(key, "userId", "lou", "query", "hello", "sessionId", session)))
                .isEqualTo("userId");
        assertThat(field(context(
                        key,
                        "userId",
                        "kim",
                        "query",
                        "hello",
                        "sessionId",
                        session,
                        "memory",
                        Map.of("rerank", true))))
                .isEqualTo("memory");
        assertThat(field(context(key, "userId", "kim", "query", "hello", "tokenBudget", 5)))
                .isEqualTo("tokenBudget");
        assertThat(field(context(key, "userId", "kim", "query", "hello", "excludeRecentTurns", 4)))
                .isEqualTo("excludeRecentTurns");
        assertThat(field(context(
                        key,
                        "userId",
                        "kim",
                        "messages",
                        List.of(Map.of("role", "user", "content", "\u200b\u2060 \u200d")))))
                .as("a message of invisible characters only is no query")
                .isEqualTo("messages");
        assertThat(context(
                                key,
                                "userId",
                                "kim",
                                "query",
                                "hello",
                                "sessionId",
                                UUID.randomUUID().toString())
                        .status())
                .isEqualTo(404);
    }

    private static String field(Api.Response response) {
        assertThat(response.status()).as(response.raw()).isEqualTo(400);
        return response.body().path("errors").get(0).path("field").asString();
    }

    @Test
    void erasingTheUserErasesTheTracesOfTheirContexts() {
        String key = api.newTenant();
        String user = userWithHistory(key, "max-" + tag);
        String id = context(key, "userId", user, "query", "tomatoes " + tag).text("id");
        assertThat(api.get(key, "/context/" + id).status()).isEqualTo(200);

        assertThat(api.send("DELETE", "/memory?userId=" + user, key, null).status())
                .isEqualTo(200);

        assertThat(api.get(key, "/context/" + id).status()).isEqualTo(404);
    }
}
