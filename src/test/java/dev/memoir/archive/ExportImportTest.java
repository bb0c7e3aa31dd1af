package dev.memoir.archive;

import static dev.memoir.archive.ChatGptConversation.export;
import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * Importing ChatGPT and Claude data exports: hand-written samples of both formats (no real user's data), built
 * here as the public descriptions of the formats give them, with branches, tool calls, system and hidden messages,
 * multimodal parts, empty and overlong messages and text in several scripts.
 */
class ExportImportTest extends IntegrationTest {

    private static final Instant T0 = Instant.parse("2024-03-01T10:00:00Z");
    private static final String UNICODE = "Olá, 東京で会いましょう 🎉 — שלום, naïve café";
    /** Longer than a turn may be (32000): three paragraphs of 15000 characters. */
    private static final String OVERLONG =
            ("a".repeat(14_999) + ".\n\n").repeat(3).strip();

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private static Map<String, Object> textContent(String text) {
        return Json.fields("content_type", "text", "parts", List.of(text));
    }

    /**
     * Everything at once: a system prompt (hidden, as ChatGPT marks it), the user's custom instructions, an edited
     * first question whose abandoned branch must not be imported, an image with text, a code-interpreter call and
     * its output, an empty answer, a hidden message, unicode and an overlong answer.
     */
    private ChatGptConversation trip(String id) {
        ChatGptConversation c = new ChatGptConversation(id, "Trip to Tokyo " + tag, T0);
        c.text(
                "sys",
                "system",
                "You are ChatGPT.",
                null,
                "metadata",
                Map.of("is_visually_hidden_from_conversation", true));
        c.add(
                null,
                "instructions",
                "user",
                Json.fields(
                        "content_type",
                        "user_editable_context",
                        "user_profile",
                        "I like trains",
                        "user_instructions",
                        "Be brief"),
                null,
                "metadata",
                Map.of("is_visually_hidden_from_conversation", true));
        // The first version of the question, answered, then edited: its branch is left behind.
        c.text("q1-old", "user", "Abandoned question " + tag, T0.plusSeconds(10));
        c.text("a1-old", "assistant", "Abandoned answer " + tag, T0.plusSeconds(11));
        c.current = "instructions";
        c.text("q1", "user", "Should I visit Tokyo in spring? " + tag, T0.plusSeconds(20));
        c.text("a1", "assistant", "Yes, for the cherry blossoms.", T0.plusSeconds(21));
        c.add(
                null,
                "q2",
                "user",
                Json.fields(
                        "content_type",
                        "multimodal_text",
                        "parts",
                        List.of(
                                Json.fields(
                                        "content_type",
                                        "image_asset_pointer",
                                        "asset_pointer",
                                        "file-service://file-x",
                                        "size_bytes",
                                        1000,
                                        "width",
                                        10,
                                        "height",
                                        10),
                                "What is on this map? " + UNICODE)),
                T0.plusSeconds(30));
        c.add(
                null,
                "call",
                "assistant",
                Json.fields("content_type", "code", "language", "python", "text", "print(1)"),
                T0.plusSeconds(31),
                "recipient",
                "python");
        c.add(null, "output", "tool", Json.fields("content_type", "execution_output", "text", "1"), T0.plusSeconds(32));
        c.text("empty", "assistant", "", T0.plusSeconds(33));
        c.text(
                "hidden",
                "assistant",
                "Hidden context",
                T0.plusSeconds(34),
                "metadata",
                Map.of("is_visually_hidden_from_conversation", true));
        c.text("a2", "assistant", OVERLONG, T0.plusSeconds(35));
        return c;
    }

    private ChatGptConversation small(String id, Instant at) {
        return new ChatGptConversation(id, "Pasta " + tag, at)
                .text("u", "user", "How long do I boil pasta? " + tag, at.plusSeconds(1))
                .text("a", "assistant", "About ten minutes.", at.plusSeconds(2));
    }

    private Api.Response importChatGpt(String key, String userId, byte[] body) {
        return api.postBytes("/users/" + userId + "/import/chatgpt", key, body, "application/json");
    }

    private Api.Response importClaude(String key, String userId, byte[] body) {
        return api.postBytes("/users/" + userId + "/import/claude", key, body, "application/json");
    }

    private static JsonNode item(Api.Response report, String conversationId) {
        for (JsonNode item : report.body().path("items")) {
            if (item.path("conversationId").asString().equals(conversationId)) {
                return item;
            }
        }
        throw new AssertionError("no report of " + conversationId + " in " + report.raw());
    }

    private List<JsonNode> turns(String key, String sessionId) {
        List<JsonNode> turns = new ArrayList<>();
        api.get(key, "/sessions/" + sessionId).body().path("turns").forEach(turns::add);
        return turns;
    }

    private List<JsonNode> sessions(String key, String userId) {
        return items(api.get(key, "/sessions?userId=" + userId));
    }

    @Test
    void aChatGptExportBecomesClosedSessionsOfTheBranchTheUserEndedOnInTheOrderTheyWereSaid() {
        String key = api.newTenant();
        String user = "gpt-" + tag;
        // Exports list the newest conversation first; its dialogue is stored second.
        Api.Response report = importChatGpt(
                key,
                user,
                export(
                        small("c-new", T0.plusSeconds(86_400)).json(),
                        trip("c-trip").json()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(report.body().path("source").asString()).isEqualTo("chatgpt");
        assertThat(report.body().path("conversations").asInt()).isEqualTo(2);
        assertThat(report.body().path("imported").asInt()).isEqualTo(2);
        JsonNode trip = item(report, "c-trip");
        assertThat(trip.path("status").asString()).isEqualTo("imported");
        assertThat(trip.path("title").asString()).isEqualTo("Trip to Tokyo " + tag);
        // sys, instructions, q1, a1, q2, call, output, empty, hidden, a2: the abandoned branch is not read.
        assertThat(trip.path("messages").asInt()).isEqualTo(10);
        assertThat(trip.path("skipped").path("system").asInt()).isEqualTo(2);
        assertThat(trip.path("skipped").path("tool").asInt()).isEqualTo(2);
        assertThat(trip.path("skipped").path("hidden").asInt()).isEqualTo(1);
        assertThat(trip.path("skipped").path("empty").asInt()).isEqualTo(1);
        assertThat(trip.path("nonTextParts").asInt()).isEqualTo(1);
        assertThat(trip.path("splitMessages").asInt()).isEqualTo(1);
        // q1, a1, q2, and a2 in two turns: its first two paragraphs (30002 characters) and its third.
        assertThat(trip.path("turns").asInt()).isEqualTo(5);
        assertThat(trip.path("dialogueFrom").asString())
                .isEqualTo(T0.plusSeconds(20).toString());
        assertThat(trip.path("dialogueTo").asString())
                .isEqualTo(T0.plusSeconds(35).toString());

        String tripSession = trip.path("sessionId").asString();
        List<JsonNode> turns = turns(key, tripSession);
        assertThat(turns)
                .extracting(t -> t.path("role").asString())
                .containsExactly("user", "assistant", "user", "assistant", "assistant");
        assertThat(turns.get(0).path("content").asString()).isEqualTo("Should I visit Tokyo in spring? " + tag);
        assertThat(turns.get(2).path("content").asString()).isEqualTo("What is on this map? " + UNICODE);
        assertThat(turns.get(0).path("occurredAt").asString())
                .isEqualTo(T0.plusSeconds(20).toString());
        assertThat(turns.subList(3, 5))
                .allSatisfy(
                        t -> assertThat(t.path("content").asString().length()).isLessThanOrEqualTo(32_000));
        assertThat(turns.get(3).path("content").asString() + "\n\n"
                        + turns.get(4).path("content").asString())
                .isEqualTo(OVERLONG);
        assertThat(turns)
                .noneSatisfy(t -> assertThat(t.path("content").asString()).contains("Abandoned"));

        JsonNode session = api.get(key, "/sessions/" + tripSession).body();
        assertThat(session.path("status").asString()).isEqualTo("closed");
        assertThat(session.path("title").asString()).isEqualTo("Trip to Tokyo " + tag);
        assertThat(session.path("dialogueFrom").asString())
                .isEqualTo(T0.plusSeconds(20).toString());
        assertThat(session.path("jobs").findValuesAsString("task")).contains("session-summary");
        assertThat(api.get(key, "/users/" + user + "/export").raw())
                .as("the user archive keeps the title")
                .contains("\"title\":\"Trip to Tokyo " + tag + "\"");
        // The older dialogue was stored and closed first, though the export lists it second.
        JsonNode newer = api.get(
                        key,
                        "/sessions/" + item(report, "c-new").path("sessionId").asString())
                .body();
        assertThat(Instant.parse(session.path("closedAt").asString()))
                .isBefore(Instant.parse(newer.path("closedAt").asString()));
        // Its turns are history memory at once, dated when they were said.
        eventually()
                .until(
                        () -> items(api.get(key, "/memory?userId=" + user + "&kind=history&limit=100")),
                        list -> list.size() == 7);
    }

    @Test
    void theSameExportAgainAddsNothingAndAGrownConversationImportsOnlyItsNewMessagesIntoANewSession() {
        String key = api.newTenant();
        String user = "again-" + tag;
        ChatGptConversation pasta = small("c-pasta", T0);
        byte[] first = export(trip("c-trip").json(), pasta.json());
        assertThat(importChatGpt(key, user, first).body().path("imported").asInt())
                .isEqualTo(2);

        Api.Response again = importChatGpt(key, user, first);
        assertThat(again.status()).as(again.raw()).isEqualTo(200);
        assertThat(again.body().path("unchanged").asInt()).as(again.raw()).isEqualTo(2);
        assertThat(again.body().path("turns").asInt()).isZero();
        assertThat(sessions(key, user)).hasSize(2);

        pasta.text("u2", "user", "And risotto? " + tag, T0.plusSeconds(7200))
                .text("a2", "assistant", "About twenty minutes.", T0.plusSeconds(7201));
        Api.Response grown = importChatGpt(key, user, export(trip("c-trip").json(), pasta.json()));
        assertThat(grown.body().path("unchanged").asInt()).as(grown.raw()).isEqualTo(1);
        JsonNode added = item(grown, "c-pasta");
        assertThat(added.path("status").asString()).isEqualTo("imported");
        assertThat(added.path("messages").asInt()).isEqualTo(2);
        assertThat(added.path("dialogueFrom").asString())
                .isEqualTo(T0.plusSeconds(7200).toString());
        assertThat(turns(key, added.path("sessionId").asString()))
                .extracting(t -> t.path("content").asString())
                .containsExactly("And risotto? " + tag, "About twenty minutes.");
        assertThat(sessions(key, user)).hasSize(3);

        // An earlier message edited since: the new messages cannot be told from the stored ones.
        ChatGptConversation edited = small("c-pasta", T0);
        edited.current = "u";
        edited.text("a-other", "assistant", "Eight minutes.", T0.plusSeconds(3));
        JsonNode refused = item(importChatGpt(key, user, export(edited.json())), "c-pasta");
        assertThat(refused.path("status").asString()).isEqualTo("refused");
        assertThat(refused.path("reason").asString()).contains("a2");

        // Erasing the user forgets what was imported: the export imports whole again.
        assertThat(api.send("DELETE", "/memory?userId=" + user, key, null).status())
                .isEqualTo(200);
        assertThat(importChatGpt(key, user, first).body().path("imported").asInt())
                .isEqualTo(2);
    }

    @Test
    void oneConversationThatCannotBeImportedDoesNotRefuseTheOthers() {
        String key = api.newTenant();
        String user = "bad-" + tag;
        ChatGptConversation noCurrent = small("c-lost", T0);
        noCurrent.current = "nowhere";
        ChatGptConversation future = small("c-future", T0)
                .text("f", "user", "From the future", Instant.now().plusSeconds(86_400));
        ChatGptConversation nul = small("c-nul", T0).text("n", "user", "a\u0000b", T0.plusSeconds(5));
        ChatGptConversation onlySystem =
                new ChatGptConversation("c-system", "System only", T0).text("s", "system", "You are ChatGPT.", T0);
        Map<String, Object> noId = small("x", T0).json();
        noId.remove("conversation_id");
        noId.remove("id");
        Api.Response report = importChatGpt(
                key,
                user,
                export(
                        noCurrent.json(),
                        future.json(),
                        nul.json(),
                        onlySystem.json(),
                        noId,
                        small("c-good", T0).json()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(item(report, "c-lost").path("reason").asString()).contains("current_node nowhere");
        assertThat(item(report, "c-future").path("reason").asString()).contains("in the future");
        assertThat(item(report, "c-nul").path("reason").asString()).contains("NUL");
        assertThat(item(report, "c-system").path("status").asString()).isEqualTo("empty");
        assertThat(report.body().path("items").get(4).path("reason").asString()).contains("conversation_id");
        assertThat(item(report, "c-good").path("status").asString()).isEqualTo("imported");
        assertThat(report.body().path("refused").asInt()).isEqualTo(4);
        // Nothing of a refused conversation was stored: one session, the good one's.
        assertThat(sessions(key, user)).hasSize(1);
    }

    @Test
    void anExportThatCannotBeReadAsAWholeIsA400NamingWhatIsWrongAndStoresNothing() throws IOException {
        String key = api.newTenant();
        String user = "unreadable-" + tag;
        byte[] good = Json.write(small("c-1", T0).json()).getBytes(StandardCharsets.UTF_8);
        Map<String, byte[]> bodies = new LinkedHashMap<>();
        bodies.put("not JSON", "this is not json".getBytes(StandardCharsets.UTF_8));
        bodies.put("holds an object", good);
        bodies.put(
                "cut short",
                ("[" + new String(good, StandardCharsets.UTF_8) + ",{\"title\":").getBytes(StandardCharsets.UTF_8));
        bodies.put(
                "not an object",
                ("[" + new String(good, StandardCharsets.UTF_8) + ", 42]").getBytes(StandardCharsets.UTF_8));
        bodies.put("Claude export", export(claude("k-1").json()));
        bodies.put(
                "zip without conversations.json", zip("chat.html", "<html></html>".getBytes(StandardCharsets.UTF_8)));
        ByteArrayOutputStream invalidUtf8 = new ByteArrayOutputStream();
        invalidUtf8.write(("[" + new String(good, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        invalidUtf8.write(",{\"title\": \"".getBytes(StandardCharsets.UTF_8));
        invalidUtf8.write(new byte[] {(byte) 0xC0, (byte) 0xAF});
        invalidUtf8.write("\"}]".getBytes(StandardCharsets.UTF_8));
        bodies.put("invalid UTF-8", invalidUtf8.toByteArray());
        Map<String, String> said = Map.of(
                "not JSON",
                "cannot be read as JSON",
                "holds an object",
                "holds an object",
                "cut short",
                "conversation [1]",
                "not an object",
                "a number",
                "Claude export",
                "import/claude",
                "zip without conversations.json",
                "without conversations.json",
                "invalid UTF-8",
                "not UTF-8");

        bodies.forEach((what, body) -> {
            Api.Response response = importChatGpt(key, user, body);
            assertProblem(response, 400, "invalid-export");
            assertThat(response.text("detail"))
                    .as(what)
                    .contains(said.get(what))
                    .contains("Nothing of it");
        });
        assertThat(sessions(key, user))
                .as("nothing stored, not even the readable conversation before")
                .isEmpty();
    }

    @Test
    void theExportsZipIsReadAsItStreamsIn() throws IOException {
        String key = api.newTenant();
        String user = "zip-" + tag;
        byte[] zip = zip(
                "chat.html",
                "<html></html>".getBytes(StandardCharsets.UTF_8),
                "export/conversations.json",
                export(small("c-zip", T0).json()));
        Api.Response report = api.postBytes("/users/" + user + "/import/chatgpt", key, zip, "application/zip");
        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(item(report, "c-zip").path("turns").asInt()).isEqualTo(2);

        Api.Response claude = api.postBytes(
                "/users/" + user + "/import/claude",
                key,
                zip("conversations.json", export(claude("k-zip").json()), "users.json", "[]".getBytes()),
                "application/octet-stream");
        assertThat(item(claude, "k-zip").path("status").asString())
                .as(claude.raw())
                .isEqualTo("imported");
    }

    // ---- Claude's conversations.json ----

    private static final class Claude {
        final Map<String, Object> conversation;
        final List<Map<String, Object>> messages = new ArrayList<>();

        Claude(String id, String name, Instant created) {
            conversation = Json.fields(
                    "uuid",
                    id,
                    "name",
                    name,
                    "created_at",
                    created.toString(),
                    "updated_at",
                    created.plusSeconds(600).toString(),
                    "account",
                    Map.of("uuid", "acc"),
                    "chat_messages",
                    messages);
        }

        Claude message(String id, String sender, Instant at, List<Map<String, Object>> content, Object... more) {
            StringBuilder text = new StringBuilder();
            content.stream().filter(b -> "text".equals(b.get("type"))).forEach(b -> text.append(b.get("text")));
            Map<String, Object> message = Json.fields(
                    "uuid",
                    id,
                    "text",
                    text.toString(),
                    "content",
                    content,
                    "sender",
                    sender,
                    "created_at",
                    at.toString(),
                    "updated_at",
                    at.toString(),
                    "attachments",
                    List.of(),
                    "files",
                    List.of());
            message.putAll(Json.fields(more));
            messages.add(message);
            return this;
        }

        Map<String, Object> json() {
            return conversation;
        }
    }

    private static Map<String, Object> text(String text) {
        return Json.fields("type", "text", "text", text);
    }

    private Claude claude(String id) {
        return new Claude(id, "Garden " + tag, T0)
                .message(
                        "m1",
                        "human",
                        T0.plusSeconds(1),
                        List.of(text("When do I plant tulips? " + UNICODE)),
                        "attachments",
                        List.of(Json.fields(
                                "file_name",
                                "plan.txt",
                                "file_type",
                                "txt",
                                "file_size",
                                10,
                                "extracted_content",
                                "beds")),
                        "files",
                        List.of(Json.fields("file_name", "photo.jpg")))
                .message(
                        "m2",
                        "assistant",
                        T0.plusSeconds(2),
                        List.of(
                                Json.fields("type", "thinking", "thinking", "The user gardens."),
                                text("In autumn."),
                                Json.fields("type", "tool_use", "name", "web_search", "input", Map.of("q", "tulips"))))
                .message(
                        "m3",
                        "assistant",
                        T0.plusSeconds(3),
                        List.of(Json.fields("type", "tool_result", "name", "web_search", "content", List.of())))
                .message("m4", "human", T0.plusSeconds(4), List.of(text("   ")))
                .message("m5", "assistant", T0.plusSeconds(5), List.of(text(OVERLONG)));
    }

    @Test
    void aClaudeExportBecomesSessionsWithItsTextBlocksAsTurns() {
        String key = api.newTenant();
        String user = "claude-" + tag;
        Api.Response report = importClaude(key, user, export(claude("k-garden").json()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        JsonNode garden = item(report, "k-garden");
        assertThat(garden.path("status").asString()).isEqualTo("imported");
        assertThat(garden.path("title").asString()).isEqualTo("Garden " + tag);
        assertThat(garden.path("messages").asInt()).isEqualTo(5);
        assertThat(garden.path("skipped").path("tool").asInt()).isEqualTo(1);
        assertThat(garden.path("skipped").path("empty").asInt()).isEqualTo(1);
        // An attachment and a file of m1, the thinking and tool_use blocks of m2.
        assertThat(garden.path("nonTextParts").asInt()).isEqualTo(4);
        assertThat(garden.path("splitMessages").asInt()).isEqualTo(1);
        List<JsonNode> turns = turns(key, garden.path("sessionId").asString());
        assertThat(turns)
                .extracting(t -> t.path("content").asString().length() > 100
                        ? "…"
                        : t.path("content").asString())
                .containsExactly("When do I plant tulips? " + UNICODE, "In autumn.", "…", "…");
        assertThat(turns.get(1).path("replyTo").asString())
                .isEqualTo(turns.get(0).path("id").asString());

        assertThat(importClaude(key, user, export(claude("k-garden").json()))
                        .body()
                        .path("unchanged")
                        .asInt())
                .isEqualTo(1);
        Api.Response wrong = importClaude(key, user, export(small("c-1", T0).json()));
        assertProblem(wrong, 400, "invalid-export");
        assertThat(wrong.text("detail")).contains("import/chatgpt");
    }

    @Test
    void aStrategyParameterChoosesTheImportedSessionsPreset() {
        String key = api.newTenant();
        String user = "preset-" + tag;
        Api.Response report = api.postBytes(
                "/users/" + user + "/import/chatgpt?strategy=memochat",
                key,
                export(small("c-1", T0).json()),
                "application/json");
        JsonNode session = api.get(
                        key,
                        "/sessions/" + item(report, "c-1").path("sessionId").asString())
                .body();
        assertThat(session.path("memory").path("strategy").asString()).isEqualTo("memochat");
        assertProblem(
                api.postBytes(
                        "/users/" + user + "/import/chatgpt?strategy=nonsense",
                        key,
                        export(small("c-2", T0).json()),
                        "application/json"),
                400,
                "invalid-request");
    }

    @Test
    void theSameImportThroughMcp() {
        String key = api.newTenant();
        String user = "mcp-" + tag;
        String conversations = new String(export(small("c-mcp", T0).json()), StandardCharsets.UTF_8);
        try (McpSyncClient mcp = api.mcp(key)) {
            CallToolResult result = mcp.callTool(new CallToolRequest(
                    "import_export", Map.of("userId", user, "source", "chatgpt", "conversations", conversations)));
            String text = ((TextContent) result.content().getFirst()).text();
            assertThat(result.isError()).as(text).isFalse();
            assertThat(text).contains("\"imported\":1").contains("c-mcp");
            CallToolResult again = mcp.callTool(new CallToolRequest(
                    "import_export", Map.of("userId", user, "source", "chatgpt", "conversations", conversations)));
            assertThat(((TextContent) again.content().getFirst()).text()).contains("\"unchanged\":1");
            CallToolResult wrong = mcp.callTool(new CallToolRequest(
                    "import_export", Map.of("userId", user, "source", "claude", "conversations", conversations)));
            assertThat(wrong.isError()).isTrue();
            assertThat(((TextContent) wrong.content().getFirst()).text()).contains("invalid-export");
        }
        assertThat(sessions(key, user)).hasSize(1);
    }

    private static byte[] zip(Object... namesAndContents) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (int i = 0; i < namesAndContents.length; i += 2) {
                zip.putNextEntry(new ZipEntry((String) namesAndContents[i]));
                zip.write((byte[]) namesAndContents[i + 1]);
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}
