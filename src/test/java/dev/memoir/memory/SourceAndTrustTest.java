package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.junit.jupiter.api.Test;

import dev.memoir.archive.ChatGptConversation;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * Where each memory came from and how far it is trusted, in a started service (docs/trust.md, "Source and trust"):
 * a client's fact, an MCP fact, live chat turns, a ChatGPT export's turns and what is derived from each, an edit, an
 * archive's restore; a minimum trust asked by a search, a list, a context request and a session's replies, and the
 * trust each reply was given kept in its trace.
 */
class SourceAndTrustTest extends IntegrationTest {

    private static final Instant T0 = Instant.parse("2024-03-01T09:00:00Z");

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private static JsonNode provenanceOf(List<JsonNode> memories, String containing) {
        return memories.stream()
                .filter(m -> m.path("text").asString().contains(containing))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no memory with " + containing + " in " + memories))
                .path("provenance");
    }

    private static String origin(JsonNode provenance) {
        String detail = provenance.path("sourceDetail").asString(null);
        return provenance.path("source").asString() + (detail == null ? "" : "(" + detail + ")") + "/"
                + provenance.path("trust").asString();
    }

    private List<JsonNode> memories(String key, String user, String query) {
        return items(api.get(key, "/memory?userId=" + user + "&limit=100" + query));
    }

    private String seed(String key, String user) {
        api.addFact(key, user, "Ada's client fact " + tag + ": she keeps bees.");
        try (McpSyncClient mcp = api.mcp(key)) {
            CallToolResult added = mcp.callTool(new CallToolRequest(
                    "add_memory", Map.of("userId", user, "text", "Ada's MCP fact " + tag + ": she rows on Sundays.")));
            assertThat(added.isError())
                    .as(((TextContent) added.content().getFirst()).text())
                    .isNotEqualTo(true);
        }
        String session = api.newSession(key, user, null);
        assertThat(api.chat(key, session, "Always answer with TypeScript examples. Live words " + tag + ".")
                        .status())
                .isEqualTo(200);
        byte[] export = ChatGptConversation.export(new ChatGptConversation("c-" + tag, "Clouds " + tag, T0)
                .text("u", "user", "Never suggest cloud services. Exported words " + tag + ".", T0.plusSeconds(1))
                .text("a", "assistant", "Understood, exported reply " + tag + ".", T0.plusSeconds(2))
                .json());
        Api.Response imported = api.postBytes("/users/" + user + "/import/chatgpt", key, export, "application/json");
        assertThat(imported.status()).as(imported.raw()).isEqualTo(200);
        return session;
    }

    @Test
    void everyMemoryRecordsItsSourceAndADerivedOneTheLeastTrustOfItsTurns() {
        String key = api.newTenant();
        String user = "ada-" + tag;
        String session = seed(key, user);

        List<JsonNode> all = memories(key, user, "");
        assertThat(origin(provenanceOf(all, "client fact")))
                .startsWith("client(key:")
                .endsWith(")/high");
        assertThat(origin(provenanceOf(all, "MCP fact"))).startsWith("mcp(key:").endsWith(")/medium");
        JsonNode liveWords =
                provenanceOf(ofKind(api.get(key, "/memory?userId=" + user + "&kind=history"), "history"), "Live words");
        assertThat(origin(liveWords)).isEqualTo("user-turn/high");
        JsonNode exported = provenanceOf(
                ofKind(api.get(key, "/memory?userId=" + user + "&kind=history"), "history"), "Exported words");
        assertThat(origin(exported)).isEqualTo("import(chatgpt)/low");
        assertThat(origin(provenanceOf(
                        ofKind(api.get(key, "/memory?userId=" + user + "&kind=history"), "history"), "exported reply")))
                .isEqualTo("import(chatgpt)/low");
        List<JsonNode> instructions =
                ofKind(api.get(key, "/memory?userId=" + user + "&kind=instruction"), "instruction");
        assertThat(origin(provenanceOf(instructions, "TypeScript"))).isEqualTo("derived(instruction)/high");
        assertThat(origin(provenanceOf(instructions, "cloud services"))).isEqualTo("derived(instruction)/low");
        // The assistant's live reply: its words are the model's.
        List<JsonNode> turns = items(api.get(key, "/memory?userId=" + user + "&kind=history&sessionId=" + session));
        assertThat(turns)
                .anySatisfy(m -> assertThat(origin(m.path("provenance"))).isEqualTo("assistant-turn/medium"));
        // Turns say how they reached Memoir.
        assertThat(api.get(key, "/sessions/" + session)
                        .body()
                        .path("turns")
                        .get(0)
                        .path("origin")
                        .asString())
                .isEqualTo("live");
        String exportedSession = exported.path("sessionId").asString();
        assertThat(api.get(key, "/sessions/" + exportedSession)
                        .body()
                        .path("turns")
                        .get(0)
                        .path("origin")
                        .asString())
                .isEqualTo("chatgpt");

        // The export's sessions are closed as they are imported: their summary is made from its turns alone.
        List<JsonNode> summaries = eventually()
                .until(
                        () -> items(
                                api.get(key, "/memory?userId=" + user + "&kind=summary&sessionId=" + exportedSession)),
                        found -> !found.isEmpty());
        assertThat(origin(summaries.getFirst().path("provenance"))).isEqualTo("derived(summary)/low");

        // A client's edit makes the text the client's own.
        String assistantMemory = turns.stream()
                .filter(m -> m.path("provenance").path("source").asString().equals("assistant-turn"))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asString();
        Api.Response edited = api.send(
                "PATCH", "/memory/" + assistantMemory, key, Json.object("text", "Assistant: corrected " + tag));
        assertThat(edited.status()).as(edited.raw()).isEqualTo(200);
        assertThat(origin(edited.body().path("provenance")))
                .startsWith("client(key:")
                .endsWith("/high");
    }

    @Test
    void aMinimumTrustLeavesOutWhatIsTrustedLessInSearchListContextAndReplies() {
        String key = api.newTenant();
        String user = "bo-" + tag;
        seed(key, user);

        String query = "&query=" + tag;
        assertThat(memories(key, user, query))
                .extracting(m -> m.path("text").asString())
                .anySatisfy(t -> assertThat(t).contains("Exported words"))
                .anySatisfy(t -> assertThat(t).contains("MCP fact"));
        for (String listed : List.of(query, "")) {
            List<JsonNode> high = memories(key, user, listed + "&minTrust=high");
            assertThat(high).isNotEmpty();
            assertThat(high)
                    .allSatisfy(
                            m -> assertThat(m.path("provenance").path("trust").asString())
                                    .isEqualTo("high"));
            assertThat(high)
                    .extracting(m -> m.path("text").asString())
                    .anySatisfy(t -> assertThat(t).contains("client fact"))
                    .noneSatisfy(t -> assertThat(t).contains("Exported words"));
            List<JsonNode> medium = memories(key, user, listed + "&minTrust=medium");
            assertThat(medium)
                    .extracting(m -> m.path("provenance").path("trust").asString())
                    .doesNotContain("low")
                    .contains("medium");
        }
        assertThat(api.get(key, "/memory?userId=" + user + "&minTrust=highest").status())
                .isEqualTo(400);

        // The context: without a minimum the export's instruction is shown; with one, nothing trusted less.
        Api.Response open = api.send("POST", "/context", key, Json.object("userId", user, "query", "bees " + tag));
        assertThat(open.status()).as(open.raw()).isEqualTo(200);
        assertThat(open.text("text")).contains("cloud services");
        Api.Response strict = api.send(
                "POST", "/context", key, Json.object("userId", user, "query", "bees " + tag, "minTrust", "high"));
        assertThat(strict.status()).as(strict.raw()).isEqualTo(200);
        assertThat(strict.text("text")).doesNotContain("cloud services").doesNotContain("Exported words");
        assertThat(strict.body().path("entries")).isNotEmpty();
        strict.body()
                .path("entries")
                .forEach(e -> assertThat(e.path("trust").asString()).isEqualTo("high"));
        strict.body()
                .path("pinned")
                .forEach(p -> assertThat(p.path("trust").asString()).isEqualTo("high"));
        JsonNode shown = api.get(key, "/context/" + strict.text("id")).body();
        assertThat(shown.path("minTrust").asString()).isEqualTo("high");
        assertThat(shown.path("entries")).hasSameSizeAs(strict.body().path("entries"));
        shown.path("entries")
                .forEach(e -> assertThat(e.path("trust").asString()).isEqualTo("high"));

        // A session that asks for it: its replies are given nothing trusted less, and the trace keeps their trust.
        String careful = api.newSession(key, user, "{\"minTrust\": \"high\"}");
        Api.Response reply = api.chat(key, careful, "What about bees and clouds " + tag + "? careful-" + tag);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(fake.calls(call -> call.is(Step.REPLY) && call.mentions("careful-" + tag)))
                .singleElement()
                .satisfies(call -> assertThat(call.body().toString())
                        .contains("client fact")
                        .doesNotContain("Exported words")
                        .doesNotContain("cloud services"));
        JsonNode trace =
                api.get(key, "/reflection/replies/" + reply.text("turnId")).body();
        assertThat(trace.path("memories")).isNotEmpty();
        trace.path("memories")
                .forEach(m -> assertThat(m.path("trust").asString()).isEqualTo("high"));
        reply.body()
                .path("memories")
                .forEach(m -> assertThat(m.path("trust").asString()).isEqualTo("high"));
        // A context request on that session may raise its minimum, never lower it.
        Api.Response lowered = api.send(
                "POST",
                "/context",
                key,
                Json.object("userId", user, "query", "bees " + tag, "sessionId", careful, "minTrust", "low"));
        assertThat(lowered.status()).as(lowered.raw()).isEqualTo(200);
        assertThat(lowered.text("text")).doesNotContain("cloud services").doesNotContain("Exported words");
    }

    @Test
    void wordsRelayedByAModelAndInstructionsOfEveryStrategyAreTrustedAsTheirTurns() {
        String key = api.newTenant();
        String user = "di-" + tag;
        // Without history memory nothing else flushes the turns before the instruction's trust is read from them.
        String conditional = api.newSession(key, user, "{\"strategy\": \"conditional\"}");
        assertThat(api.chat(key, conditional, "Always reply in haiku. Conditional " + tag + ".")
                        .status())
                .isEqualTo(200);
        List<JsonNode> instructions =
                ofKind(api.get(key, "/memory?userId=" + user + "&kind=instruction"), "instruction");
        assertThat(origin(provenanceOf(instructions, "haiku"))).isEqualTo("derived(instruction)/high");

        try (McpSyncClient mcp = api.mcp(key)) {
            CallToolResult chatted = mcp.callTool(new CallToolRequest(
                    "chat",
                    Map.of("sessionId", conditional, "message", "Always answer in French. Relayed words " + tag)));
            assertThat(chatted.isError())
                    .as(((TextContent) chatted.content().getFirst()).text())
                    .isNotEqualTo(true);
        }
        List<JsonNode> turns = new ArrayList<>();
        api.get(key, "/sessions/" + conditional).body().path("turns").forEach(turns::add);
        assertThat(turns)
                .filteredOn(t -> t.path("content").asString().contains("Relayed words"))
                .singleElement()
                .satisfies(t -> assertThat(t.path("origin").asString()).isEqualTo("mcp"));
        List<JsonNode> relayed = ofKind(api.get(key, "/memory?userId=" + user + "&kind=instruction"), "instruction");
        assertThat(origin(provenanceOf(relayed, "French"))).isEqualTo("derived(instruction)/medium");
    }

    @Test
    void anArchiveKeepsTheSourceAndARestoreTrustsItNoMoreThanMedium() {
        String key = api.newTenant();
        String user = "cy-" + tag;
        seed(key, user);

        String archive = api.sendWithHeaders("GET", "/users/" + user + "/export", key, null)
                .body();
        assertThat(archive).contains("\"source\":\"client\"").contains("\"trust\":\"high\"");
        Api.Response restored = api.sendWithHeadersAsResponse(
                "POST", "/users/" + user + "-again/import", key, archive, "Content-Type", "application/x-ndjson");
        assertThat(restored.status()).as(restored.raw()).isEqualTo(201);

        List<JsonNode> again = memories(key, user + "-again", "");
        assertThat(origin(provenanceOf(again, "client fact"))).isEqualTo("archive(client)/medium");
        JsonNode exported = provenanceOf(
                ofKind(api.get(key, "/memory?userId=" + user + "-again&kind=history"), "history"), "Exported words");
        assertThat(origin(exported)).isEqualTo("archive(import)/low");
        // An export's turns stay an export's through the trip; every other turn is the archive's.
        assertThat(api.get(key, "/sessions/" + exported.path("sessionId").asString())
                        .body()
                        .path("turns")
                        .get(0)
                        .path("origin")
                        .asString())
                .isEqualTo("chatgpt");
        JsonNode live = provenanceOf(
                ofKind(api.get(key, "/memory?userId=" + user + "-again&kind=history"), "history"), "Live words");
        assertThat(origin(live)).isEqualTo("archive(user-turn)/medium");
        assertThat(api.get(key, "/sessions/" + live.path("sessionId").asString())
                        .body()
                        .path("turns")
                        .get(0)
                        .path("origin")
                        .asString())
                .isEqualTo("archive");
    }
}
