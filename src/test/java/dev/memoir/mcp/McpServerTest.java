package dev.memoir.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The MCP server driven by the MCP Java SDK's client over streamable HTTP, as any MCP host would drive it. */
class McpServerTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private final List<McpSyncClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(McpSyncClient::close);
    }

    private McpSyncClient client(String key) {
        McpSyncClient client = api.mcp(key);
        clients.add(client);
        return client;
    }

    private static CallToolResult call(McpSyncClient client, String tool, Object... keysAndValues) {
        Map<String, Object> arguments = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            arguments.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return client.callTool(new CallToolRequest(tool, arguments));
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().getFirst()).text();
    }

    /** The JSON a successful call answered. */
    private static JsonNode ok(CallToolResult result) {
        assertThat(result.isError()).as(text(result)).isFalse();
        return JSON.readTree(text(result));
    }

    /**
     * A call refused for one of its arguments: a tool error naming it, whether the server's schema validation or
     * Memoir's own checks (canonical user ids, visible text, times, cursors) refused it.
     */
    private static void assertRefused(CallToolResult result, String argument) {
        assertThat(failed(result))
                .containsPattern("(invalid-request: " + argument + " |/" + argument + "[/:]|'" + argument + "')");
    }

    /** The message of a tool error. */
    private static String failed(CallToolResult result) {
        assertThat(result.isError()).as(text(result)).isTrue();
        return text(result);
    }

    @Test
    void theToolsAreListedWithDescriptionsAndSchemasAndNoTenantArgument() {
        List<Tool> tools = client(api.newTenant()).listTools().tools();

        assertThat(tools)
                .extracting(Tool::name)
                .as("every tool, in the order of their names, as before the tools were split by what they serve")
                .containsExactly(
                        "add_memory",
                        "chat",
                        "delete_memory",
                        "export_user",
                        "get_context",
                        "get_memory",
                        "get_usage",
                        "import_export",
                        "import_user",
                        "list_memories",
                        "list_quarantined_memories",
                        "search_memory",
                        "update_memory");
        assertThat(tools).allSatisfy(tool -> {
            assertThat(tool.description()).hasSizeGreaterThan(40);
            assertThat(tool.inputSchema()).containsEntry("type", "object");
            @SuppressWarnings("unchecked")
            Map<String, Object> properties =
                    (Map<String, Object>) tool.inputSchema().get("properties");
            assertThat(properties).isNotEmpty().allSatisfy((name, property) -> {
                assertThat(name.toLowerCase()).doesNotContain("tenant");
                assertThat(((Map<?, ?>) property).get("description"))
                        .as(tool.name() + "." + name)
                        .isNotNull();
            });
        });
        Tool add = tools.stream()
                .filter(t -> t.name().equals("add_memory"))
                .findFirst()
                .orElseThrow();
        assertThat(add.inputSchema().get("required")).isEqualTo(List.of("userId", "text"));
        Tool search = tools.stream()
                .filter(t -> t.name().equals("search_memory"))
                .findFirst()
                .orElseThrow();
        assertThat(search.annotations().readOnlyHint()).isTrue();
    }

    @Test
    void aMemoryAddedThroughMcpIsSearchableEditableAndDeletable() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);

        JsonNode added = ok(call(
                mcp,
                "add_memory",
                "userId",
                "alice",
                "text",
                "Alice is allergic to peanuts " + tag,
                "occurredAt",
                "2024-03-01T09:00:00Z"));
        String id = added.path("memory").path("id").asString();
        assertThat(added.path("created").asBoolean()).isTrue();
        assertThat(added.path("memory").path("kind").asString()).isEqualTo("fact");
        assertThat(ok(call(mcp, "add_memory", "userId", "alice", "text", "Alice is allergic to peanuts " + tag))
                        .path("created")
                        .asBoolean())
                .as("the same text again")
                .isFalse();

        JsonNode found = ok(call(
                mcp, "search_memory", "userId", "alice", "query", "food allergy", "kind", List.of("fact"), "limit", 5));
        assertThat(found.path("items").get(0).path("id").asString()).isEqualTo(id);
        assertThat(found.path("items").get(0).path("score").asDouble()).isPositive();
        assertThat(ok(call(
                                mcp,
                                "search_memory",
                                "userId",
                                "alice",
                                "query",
                                "food allergy",
                                "to",
                                "2024-01-01T00:00:00Z"))
                        .path("items"))
                .as("outside the time window")
                .isEmpty();
        assertThat(ok(call(mcp, "get_memory", "id", id)).path("text").asString())
                .isEqualTo("Alice is allergic to peanuts " + tag);

        JsonNode updated = ok(call(mcp, "update_memory", "id", id, "text", "Alice is allergic to hazelnuts " + tag));
        assertThat(updated.path("version").asInt()).isEqualTo(2);
        assertThat(api.get(key, "/memory/" + id).text("text")).isEqualTo("Alice is allergic to hazelnuts " + tag);

        assertThat(ok(call(mcp, "delete_memory", "id", id)).path("deleted").asString())
                .isEqualTo(id);
        assertThat(failed(call(mcp, "get_memory", "id", id))).startsWith("not-found:");
        assertThat(api.get(key, "/memory/" + id).status()).isEqualTo(404);
    }

    @Test
    void supersessionExpiryAndValidityWorkThroughMcpAsThroughRest() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);
        String paris = ok(call(
                        mcp,
                        "add_memory",
                        "userId",
                        "eve",
                        "text",
                        "Eve lives in Paris " + tag,
                        "occurredAt",
                        "2024-01-01T00:00:00Z",
                        "supersedes",
                        List.of()))
                .path("memory")
                .path("id")
                .asString();
        JsonNode berlin = ok(call(
                        mcp,
                        "add_memory",
                        "userId",
                        "eve",
                        "text",
                        "Eve moved to Berlin " + tag,
                        "occurredAt",
                        "2024-06-01T00:00:00Z",
                        "supersedes",
                        List.of(paris)))
                .path("memory");

        assertThat(berlin.path("supersedes").get(0).asString()).isEqualTo(paris);
        assertThat(ok(call(mcp, "list_memories", "userId", "eve")).path("items"))
                .hasSize(1);
        assertThat(ok(call(mcp, "list_memories", "userId", "eve", "includeSuperseded", true))
                        .path("items"))
                .hasSize(2);
        assertThat(ok(call(
                                mcp,
                                "search_memory",
                                "userId",
                                "eve",
                                "query",
                                "where does Eve live",
                                "asOf",
                                "2024-03-01T00:00:00Z"))
                        .path("items")
                        .get(0)
                        .path("id")
                        .asString())
                .isEqualTo(paris);
        assertRefused(
                call(
                        mcp,
                        "add_memory",
                        "userId",
                        "eve",
                        "text",
                        "Eve is a cook " + tag,
                        "supersedes",
                        List.of("not-a-uuid")),
                "supersedes");

        String id = berlin.path("id").asString();
        String soon = Instant.now()
                .plus(Duration.ofDays(1))
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        assertThat(ok(call(mcp, "update_memory", "id", id, "expiresAt", soon))
                        .path("expiresAt")
                        .asString())
                .isEqualTo(soon);
        assertThat(ok(call(mcp, "update_memory", "id", id, "neverExpires", true))
                        .has("expiresAt"))
                .isFalse();
        assertThat(ok(call(mcp, "update_memory", "id", id, "supersedes", List.of()))
                        .has("supersedes"))
                .isFalse();
        assertThat(api.get(key, "/memory/" + paris).body().has("supersededBy")).isFalse();
    }

    @Test
    void aUserExportedThroughMcpIsImportedThroughMcpAsAnotherUser() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);
        String old = ok(call(
                        mcp,
                        "add_memory",
                        "userId",
                        "fay",
                        "text",
                        "Fay lives in Paris " + tag,
                        "supersedes",
                        List.of()))
                .path("memory")
                .path("id")
                .asString();
        ok(call(mcp, "add_memory", "userId", "fay", "text", "Fay moved to Berlin " + tag, "supersedes", List.of(old)));

        String archive =
                ok(call(mcp, "export_user", "userId", "fay")).path("archive").asString();
        JsonNode imported = ok(call(mcp, "import_user", "userId", "fay-copy", "archive", archive));

        assertThat(archive.lines().findFirst().orElseThrow()).contains("\"memoir-user-archive\"");
        assertThat(imported.path("counts").path("memory").asLong()).isEqualTo(2);
        assertThat(ok(call(mcp, "list_memories", "userId", "fay-copy"))
                        .path("items")
                        .get(0)
                        .path("text")
                        .asString())
                .isEqualTo("Fay moved to Berlin " + tag);
        assertThat(ok(call(mcp, "list_memories", "userId", "fay-copy", "includeSuperseded", true))
                        .path("items"))
                .hasSize(2);
        assertThat(failed(call(mcp, "import_user", "userId", "fay-copy", "archive", archive)))
                .startsWith("user-not-empty:");
        assertThat(failed(call(mcp, "import_user", "userId", "gus", "archive", "{\"type\": \"nope\"}")))
                .startsWith("invalid-archive:");
    }

    @Test
    void listMemoriesPagesWithACursorAndRefusesABadOne() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            texts.add("Bo fact " + i + " " + tag);
            ok(call(mcp, "add_memory", "userId", "bo", "text", texts.getLast()));
        }

        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = cursor == null
                    ? ok(call(mcp, "list_memories", "userId", "bo", "limit", 2))
                    : ok(call(mcp, "list_memories", "userId", "bo", "limit", 2, "cursor", cursor));
            page.path("items").forEach(m -> listed.add(m.path("text").asString()));
            cursor = page.has("nextCursor") ? page.path("nextCursor").asString() : null;
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        assertThat(listed).containsExactlyElementsOf(texts.reversed());
        assertRefused(call(mcp, "list_memories", "userId", "bo", "cursor", "garbage"), "cursor");
        assertRefused(call(mcp, "list_memories", "userId", "bo", "limit", 1000), "limit");
    }

    @Test
    void chatAnswersWithTheUsersMemoryAndStoresTheTurns() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);
        ok(call(mcp, "add_memory", "userId", "carl", "text", "Carl's daughter is called Mireille " + tag));
        String question = "What is my daughter's name? " + tag;
        onModelCall(
                c -> c.is(Step.REPLY) && c.lastUserMessage().equals(question),
                c -> Answer.json("{\"reply\": \"She is called Mireille.\", \"remember\": false, \"citations\": [1]}"));

        JsonNode reply = ok(call(mcp, "chat", "userId", "carl", "message", question));

        assertThat(reply.path("reply").asString()).isEqualTo("She is called Mireille.");
        assertThat(reply.path("memories").get(0).path("text").asString())
                .isEqualTo("Carl's daughter is called Mireille " + tag);
        assertThat(reply.path("memories").get(0).path("cited").asBoolean()).isTrue();
        ChatCall call = fake.calls(c -> c.is(Step.REPLY) && c.lastUserMessage().equals(question))
                .getFirst();
        assertThat(call.prompt()).contains("Carl's daughter is called Mireille " + tag);
        String session = reply.path("sessionId").asString();
        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        assertThat(turns)
                .extracting(t -> t.path("content").asString())
                .containsExactly(question, "She is called Mireille.");

        JsonNode again = ok(call(mcp, "chat", "sessionId", session, "message", "Thanks " + tag));
        assertThat(again.path("sessionId").asString())
                .as("the same conversation")
                .isEqualTo(session);
        assertRefused(call(mcp, "chat", "sessionId", session, "userId", "someone-else", "message", "Hi"), "userId");
        assertRefused(call(mcp, "chat", "message", "Hi"), "userId");
    }

    @Test
    void aSearchWithoutALimitAnswersAsManyThroughMcpAsThroughRest() {
        String key = api.newTenant();
        for (int i = 0; i < 25; i++) {
            api.addFact(key, "vic", "Vic's garden note " + i + ": the tomatoes in bed " + i + " need water " + tag);
        }
        String query = "tomatoes need water " + tag;

        JsonNode mcp = ok(call(client(key), "search_memory", "userId", "vic", "query", query));
        List<JsonNode> rest = items(api.get(key, "/memory?userId=vic&query=" + query.replace(" ", "+")));

        assertThat(rest).hasSize(20);
        assertThat(mcp.path("items")).hasSize(rest.size());
    }

    @Test
    void getUsageAnswersTheTenantsOwnUsageAsGetUsageDoes() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);
        ok(call(mcp, "chat", "userId", "uli", "message", "Which bird sings at dawn? " + tag));

        // Written every 200 ms here: the reply's own request possibly after its embeddings.
        eventually()
                .until(() -> ok(call(mcp, "get_usage", "groupBy", "step", "userId", "uli"))
                        .path("groups")
                        .valueStream()
                        .anyMatch(group -> group.path("key").asString().equals("reply")));
        // The reply's group: the chat's memory jobs, if any run meanwhile, add to other steps.
        JsonNode usage = replyGroup(ok(call(mcp, "get_usage", "groupBy", "step", "userId", "uli")));
        assertThat(usage.path("total").path("requests").asLong()).isEqualTo(1);
        assertThat(usage)
                .isEqualTo(replyGroup(
                        api.get(key, "/usage?groupBy=step&userId=uli").body()));
        assertRefused(call(mcp, "get_usage", "groupBy", "tenant"), "groupBy");
        assertThat(ok(call(client(api.newTenant()), "get_usage")).path("groups"))
                .isEmpty();
    }

    private static JsonNode replyGroup(JsonNode usage) {
        return usage.path("groups")
                .valueStream()
                .filter(group -> group.path("key").asString().equals("reply"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no reply in " + usage));
    }

    @Test
    void aTenantsKeyNeverReachesAnotherTenantsMemoryThroughMcp() {
        String acme = api.newTenant();
        String globex = api.newTenant();
        String id = ok(call(client(acme), "add_memory", "userId", "hana", "text", "Hana's locker code is 4711 " + tag))
                .path("memory")
                .path("id")
                .asString();
        String session = api.newSession(acme, "hana", null);
        McpSyncClient intruder = client(globex);

        assertThat(failed(call(intruder, "get_memory", "id", id))).startsWith("not-found:");
        assertThat(failed(call(intruder, "update_memory", "id", id, "text", "stolen")))
                .startsWith("not-found:");
        assertThat(failed(call(intruder, "delete_memory", "id", id))).startsWith("not-found:");
        assertThat(ok(call(intruder, "search_memory", "userId", "hana", "query", "locker code"))
                        .path("items"))
                .isEmpty();
        assertThat(ok(call(intruder, "list_memories", "userId", "hana")).path("items"))
                .isEmpty();
        assertThat(failed(call(intruder, "chat", "sessionId", session, "message", "What is my code?")))
                .startsWith("not-found:");
        assertThat(failed(call(
                        intruder,
                        "get_memory",
                        "id",
                        id,
                        "tenantId",
                        UUID.randomUUID().toString())))
                .as("no tool takes a tenant")
                .contains("tenantId");
        JsonNode untouched = api.get(acme, "/memory/" + id).body();
        assertThat(untouched.path("text").asString()).isEqualTo("Hana's locker code is 4711 " + tag);
        assertThat(untouched.path("version").asInt()).isEqualTo(1);
        assertThat(items(api.get(acme, "/memory?userId=hana"))).hasSize(1);
    }

    @Test
    void mcpNeedsAValidApiKey() {
        String initialize = """
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
                 "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}""";

        Api.Response anonymous = api.sendWithHeadersAsResponse(
                "POST", "/mcp", null, initialize, "Accept", "application/json, text/event-stream");
        Api.Response wrongKey = api.sendWithHeadersAsResponse(
                "POST", "/mcp", "mk_not-a-key", initialize, "Accept", "application/json, text/event-stream");
        Api.Response operator = api.sendWithHeadersAsResponse(
                "POST", "/mcp", Api.BOOTSTRAP_KEY, initialize, "Accept", "application/json, text/event-stream");

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.text("code")).isEqualTo("unauthorized");
        assertThat(wrongKey.status()).isEqualTo(401);
        assertThat(operator.status()).as("the bootstrap key is no tenant's").isEqualTo(401);
        assertThatThrownBy(() -> client("mk_not-a-key")).isInstanceOf(RuntimeException.class);
        String key = api.newTenant();
        Api.Response valid = api.sendWithHeadersAsResponse(
                "POST", "/mcp", key, initialize, "Accept", "application/json, text/event-stream");
        assertThat(valid.status()).isEqualTo(200);
        assertThat(valid.body().path("result").path("serverInfo").path("name").asString())
                .isEqualTo("memoir");

        // Stateless: a tool call stands alone, without a handshake or a session header (as http/mcp.http sends it).
        Api.Response added = api.sendWithHeadersAsResponse(
                "POST", "/mcp", key, """
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                 "params": {"name": "add_memory", "arguments": {"userId": "raw", "text": "Raw plays the cello."}}}""", "Accept", "application/json, text/event-stream");
        assertThat(added.status()).as(added.raw()).isEqualTo(200);
        assertThat(added.body().path("result").path("isError").asBoolean()).isFalse();
        assertThat(JSON.readTree(added.body()
                                .path("result")
                                .path("content")
                                .get(0)
                                .path("text")
                                .asString())
                        .path("memory")
                        .path("text")
                        .asString())
                .isEqualTo("Raw plays the cello.");
    }

    @Test
    void invalidArgumentsAreToolErrorsNamingTheArgument() {
        McpSyncClient mcp = client(api.newTenant());
        String future = Instant.now().plus(1, ChronoUnit.HOURS).toString();

        assertRefused(call(mcp, "add_memory", "userId", "dan", "text", "x", "kind", "history"), "kind");
        assertRefused(call(mcp, "add_memory", "text", "x"), "userId");
        assertRefused(call(mcp, "add_memory", "userId", " dan", "text", "x"), "userId");
        assertRefused(call(mcp, "add_memory", "userId", "dan", "text", "\u200b "), "text");
        assertRefused(call(mcp, "add_memory", "userId", "dan", "text", "a\u0000b"), "text");
        assertRefused(call(mcp, "add_memory", "userId", "dan", "text", "x", "occurredAt", future), "occurredAt");
        assertRefused(call(mcp, "add_memory", "userId", "dan", "text", "x", "occurredAt", "yesterday"), "occurredAt");
        assertRefused(call(mcp, "get_memory", "id", "not-a-uuid"), "id");
        assertThat(failed(call(mcp, "get_memory", "id", UUID.randomUUID().toString())))
                .startsWith("not-found:");
        assertRefused(call(mcp, "search_memory", "userId", "dan", "query", "x", "kind", List.of("gossip")), "kind");
        assertRefused(
                call(
                        mcp,
                        "search_memory",
                        "userId",
                        "dan",
                        "query",
                        "x",
                        "from",
                        "2024-02-01T00:00:00Z",
                        "to",
                        "2024-01-01T00:00:00Z"),
                "to");
        assertRefused(call(mcp, "search_memory", "userId", "dan", "query", 42), "query");
        assertThat(ok(call(mcp, "list_memories", "userId", "dan")).path("items"))
                .isEmpty();
    }
}
