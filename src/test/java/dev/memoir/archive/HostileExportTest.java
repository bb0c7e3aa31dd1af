package dev.memoir.archive;

import static dev.memoir.archive.ChatGptConversation.export;
import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sun.net.httpserver.HttpServer;

import dev.memoir.archive.dataexport.ExportedText;
import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;
import dev.memoir.support.TwoPartUpload;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ChatGPT exports as a hostile client sends them: content the format's descriptions do not promise, ids and texts
 * past every limit, archives made again by other tools, and an import raced by an erasure or a session's deletion.
 * Each case once answered 500, cost without bound, or lost or leaked data (issue 40).
 */
class HostileExportTest extends IntegrationTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    JdbcClient jdbc;

    private Api.Response importChatGpt(String key, String userId, byte[] body, String contentType) {
        return api.postBytes("/users/" + userId + "/import/chatgpt", key, body, contentType);
    }

    private Api.Response importChatGpt(String key, String userId, byte[] body) {
        return importChatGpt(key, userId, body, "application/json");
    }

    private ChatGptConversation small(String id) {
        return new ChatGptConversation(id, "Pasta " + tag, T0)
                .text("u", "user", "How long do I boil pasta? " + tag, T0.plusSeconds(1))
                .text("a", "assistant", "About ten minutes.", T0.plusSeconds(2));
    }

    private static JsonNode item(Api.Response report, String conversationId) {
        for (JsonNode item : report.body().path("items")) {
            if (item.path("conversationId").asString().equals(conversationId)) {
                return item;
            }
        }
        throw new AssertionError("no report of " + conversationId + " in " + report.raw());
    }

    private List<String> turnsOf(String key, String sessionId) {
        List<String> turns = new ArrayList<>();
        api.get(key, "/sessions/" + sessionId)
                .body()
                .path("turns")
                .forEach(t -> turns.add(t.path("content").asString()));
        return turns;
    }

    // Content the format does not promise.

    static Stream<Arguments> contentWithoutAContentType() {
        return Stream.of(
                Arguments.of("parts without a content_type", Json.fields("parts", List.of("Hello from parts"))),
                Arguments.of("a null content_type", Json.fields("content_type", null, "parts", List.of("Hi"))),
                Arguments.of("an empty object", Map.of()),
                Arguments.of("a string", "Hello as a string"),
                Arguments.of("null", null));
    }

    @ParameterizedTest(name = "content: {0}")
    @MethodSource("contentWithoutAContentType")
    void aMessageWhoseContentHasNoContentTypeIsReadOverRestAndMcp(String what, Object content) {
        String key = api.newTenant();
        ChatGptConversation odd = new ChatGptConversation("c-odd", "Odd " + tag, T0)
                .add(null, "odd", "user", null, T0.plusSeconds(1), "content", content)
                .text("a", "assistant", "Noted " + tag, T0.plusSeconds(2));
        byte[] body = export(odd.json());

        Api.Response report = importChatGpt(key, "odd-" + tag, body);
        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(item(report, "c-odd").path("status").asString()).isEqualTo("imported");

        try (McpSyncClient mcp = api.mcp(key)) {
            CallToolResult result = mcp.callTool(new CallToolRequest(
                    "import_export",
                    Map.of(
                            "userId",
                            "odd-mcp-" + tag,
                            "source",
                            "chatgpt",
                            "conversations",
                            new String(body, StandardCharsets.UTF_8))));
            String text = ((TextContent) result.content().getFirst()).text();
            assertThat(result.isError()).as(text).isFalse();
            assertThat(text).contains("\"imported\":1");
        }
    }

    @Test
    void aTitleLongerThanKeptIsCutBetweenCharactersNeverInsideOne() {
        String key = api.newTenant();
        // The emoji's two UTF-16 units sit across the 500th character.
        String title = "t".repeat(ExportedText.TITLE_LIMIT - 1) + "🎉" + " and more " + tag;
        ChatGptConversation long1 = new ChatGptConversation("c-title", title, T0)
                .text("u", "user", "Hello " + tag, T0.plusSeconds(1))
                .text("a", "assistant", "Hi.", T0.plusSeconds(2));
        ChatGptConversation later = small("c-later");

        Api.Response report = importChatGpt(key, "title-" + tag, export(long1.json(), later.json()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(report.body().path("imported").asInt()).as(report.raw()).isEqualTo(2);
        String session = item(report, "c-title").path("sessionId").asString();
        assertThat(api.get(key, "/sessions/" + session).text("title"))
                .isEqualTo("t".repeat(ExportedText.TITLE_LIMIT - 1));
    }

    // Limits.

    /** Conversations with ids of 20,000 characters, refused for their id or, read, for a time that is none. */
    @ParameterizedTest(name = "refused for {0}")
    @ValueSource(strings = {"its id", "its create_time"})
    void refusedIdsAreEchoedCutSoTheReportStaysSmall(String refusedFor) {
        String key = api.newTenant();
        List<Object> conversations = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Map<String, Object> conversation =
                    small("c-" + i + "-" + "x".repeat(20_000)).json();
            if (refusedFor.equals("its create_time")) {
                conversation.put("create_time", "not a time");
            }
            conversations.add(conversation);
        }

        Api.Response report = importChatGpt(key, "ids-" + tag, export(conversations.toArray()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(report.body().path("refused").asInt()).isEqualTo(50);
        assertThat(report.raw().length()).as("bytes of the report").isLessThan(50 * 1_000);
        for (JsonNode item : report.body().path("items")) {
            assertThat(item.path("conversationId").asString())
                    .startsWith("c-")
                    .endsWith("…")
                    .hasSizeLessThanOrEqualTo(101);
        }
    }

    @Test
    void aTextLongerThanAnyMessageMayBeRefusesTheExportNamingTheLimitBeforeHoldingIt() {
        String key = api.newTenant();
        String huge = "y".repeat(250_000);

        Api.Response report =
                importChatGpt(key, "huge-" + tag, export(small(huge).json()));

        assertProblem(report, 400, "invalid-export");
        assertThat(report.body().path("detail").asString())
                .contains("memoir.imports.max-message-characters")
                .contains("200000");
        assertThat(report.raw().length()).isLessThan(2_000);
    }

    @Test
    void aMessageLongerThanTheLimitRefusesItsConversationNamingTheLimitAndTheOthersImport() {
        String key = api.newTenant();
        // No one part is longer than the limit; together they are.
        ChatGptConversation pasted = new ChatGptConversation("c-pasted", "Pasted " + tag, T0)
                .add(
                        null,
                        "big",
                        "user",
                        Json.fields(
                                "content_type",
                                "text",
                                "parts",
                                List.of("word ".repeat(20_001), "word ".repeat(20_001))),
                        T0.plusSeconds(1));

        Api.Response report = importChatGpt(
                key, "pasted-" + tag, export(pasted.json(), small("c-fine").json()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        JsonNode refused = item(report, "c-pasted");
        assertThat(refused.path("status").asString()).isEqualTo("refused");
        assertThat(refused.path("reason").asString())
                .contains("memoir.imports.max-message-characters")
                .contains("200012");
        assertThat(item(report, "c-fine").path("status").asString()).isEqualTo("imported");
    }

    @Test
    void aConversationOfMoreTurnsThanALimitIsRefusedNamingItBeforeAnyIsStored() {
        String key = api.newTenant();
        ChatGptConversation endless = new ChatGptConversation("c-endless", "Endless " + tag, T0);
        for (int i = 0; i < 10_001; i++) {
            endless.text("m" + i, i % 2 == 0 ? "user" : "assistant", "Line " + i, T0.plusSeconds(i + 1));
        }

        Api.Response report = importChatGpt(key, "endless-" + tag, export(endless.json()));

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        JsonNode refused = item(report, "c-endless");
        assertThat(refused.path("status").asString()).isEqualTo("refused");
        assertThat(refused.path("reason").asString())
                .contains("memoir.imports.max-turns-per-conversation")
                .contains("10001");
        assertThat(items(api.get(key, "/sessions?userId=endless-" + tag))).isEmpty();
    }

    // Archives made again by other tools.

    /** A zip of the export made again on Windows, in one of the ways that once refused it. */
    static Stream<Arguments> zipsMadeAgain() throws IOException {
        byte[] conversations = export(new ChatGptConversation("c-windows", "Windows", T0)
                .text("u", "user", "Hello from Windows", T0.plusSeconds(1))
                .json());
        Charset cp437 = Charset.forName("IBM437");
        return Stream.of(
                Arguments.of(
                        "backslashes between folders",
                        zip(StandardCharsets.UTF_8, "export\\conversations.json", conversations),
                        "application/zip"),
                Arguments.of(
                        "another entry named in CP437, without the UTF-8 flag",
                        zip(
                                cp437,
                                "Übersicht März.txt",
                                "notes".getBytes(StandardCharsets.UTF_8),
                                "conversations.json",
                                conversations),
                        "application/zip"),
                Arguments.of(
                        "the content type browsers on Windows send",
                        zip(StandardCharsets.UTF_8, "conversations.json", conversations),
                        "application/x-zip-compressed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("zipsMadeAgain")
    void aZipMadeAgainOnWindowsIsRead(String how, byte[] zip, String contentType) {
        String key = api.newTenant();

        Api.Response report = importChatGpt(key, "windows-" + tag, zip, contentType);

        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        assertThat(item(report, "c-windows").path("status").asString()).isEqualTo("imported");
    }

    private static byte[] zip(Charset names, Object... namesAndContents) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes, names)) {
            for (int i = 0; i < namesAndContents.length; i += 2) {
                zip.putNextEntry(new ZipEntry((String) namesAndContents[i]));
                zip.write((byte[]) namesAndContents[i + 1]);
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    // Races with an erasure and with a session's deletion.

    /** Whether the export's import holds the user (EXPORT_IMPORT, shared, granted), or an erasure waits for it. */
    private long exportImportLocks(String tenantId, String userId, String mode, boolean granted) {
        return jdbc.sql("""
                select count(*) from pg_locks l, (select hashtextextended(:key, 47) as k) h
                where l.locktype = 'advisory' and l.objsubid = 1 and l.mode = :mode
                  and l.classid::bigint = (h.k >> 32) & 4294967295 and l.objid::bigint = h.k & 4294967295
                  and l.granted = :granted""")
                .param("key", tenantId + "/" + userId)
                .param("mode", mode)
                .param("granted", granted)
                .query(Long.class)
                .single();
    }

    private record Split(byte[] first, byte[] rest) {}

    /** The export cut right after the conversation with this id, so that the server has read that one whole. */
    private static Split cutAfter(byte[] export, String conversationId) {
        String text = new String(export, StandardCharsets.UTF_8);
        int at = text.indexOf(",", text.indexOf("\"id\":\"" + conversationId + "\"")) + 1;
        int bytes = text.substring(0, at).getBytes(StandardCharsets.UTF_8).length;
        return new Split(Arrays.copyOfRange(export, 0, bytes), Arrays.copyOfRange(export, bytes, export.length));
    }

    @Test
    void anErasureSentWhileAnExportUploadsWaitsForTheImportThenErasesAllOfIt() throws Exception {
        Api.Response created = api.createTenant("export-erasure-" + tag);
        String tenantId = created.text("id");
        String key = created.text("apiKey");
        String user = "eve-" + tag;
        List<Object> conversations = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            conversations.add(small("c-" + i).json());
        }
        byte[] body = export(conversations.toArray());
        Split split = cutAfter(body, "c-1");
        CountDownLatch gate = new CountDownLatch(1);
        List<String> events = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            events.add(JSON.readTree(exchange.getRequestBody().readAllBytes())
                    .path("type")
                    .asString());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        Api.Response endpoint = api.send(
                "POST",
                "/webhooks",
                key,
                Json.object(
                        "url",
                        "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
                        "events",
                        List.of("turns.recorded", "session.closed", "import.finished", "user.erased")));
        assertThat(endpoint.status()).as(endpoint.raw()).isEqualTo(201);

        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> imported = clients.submit(() -> TwoPartUpload.post(
                    api.port(),
                    "/users/" + user + "/import/chatgpt",
                    key,
                    "application/json",
                    split.first(),
                    split.rest(),
                    gate));
            try {
                eventually()
                        .until(() -> exportImportLocks(tenantId, user, "ShareLock", true) == 1 || imported.isDone());
                assertThat(imported.isDone())
                        .as("the import ended before its client sent all of it")
                        .isFalse();
                Future<Api.Response> erased =
                        clients.submit(() -> api.send("DELETE", "/memory?userId=" + user, key, null));
                eventually().until(() -> exportImportLocks(tenantId, user, "ExclusiveLock", false) == 1);
                assertThat(erased.isDone())
                        .as("the erasure waits for the import")
                        .isFalse();
                gate.countDown();

                String answer = imported.get(60, TimeUnit.SECONDS);
                assertThat(answer).startsWith("HTTP/1.1 200").contains("\"imported\":5");
                Api.Response erasure = erased.get(60, TimeUnit.SECONDS);
                assertThat(erasure.status()).as(erasure.raw()).isEqualTo(200);
                assertThat(erasure.body().path("sessions").asLong())
                        .as("the erasure came after the whole import")
                        .isEqualTo(5);
            } finally {
                gate.countDown();
            }
        }
        // Every delivery made, the last the receiver took is user.erased: nothing about the user came after it.
        eventually()
                .until(() -> events.contains("user.erased")
                        && items(api.get(key, "/webhooks/" + endpoint.text("id") + "/deliveries")).stream()
                                .allMatch(d -> d.path("state").asString().equals("delivered")));
        receiver.stop(0);
        assertThat(events.getLast()).as("events in the order taken: %s", events).isEqualTo("user.erased");
        assertThat(items(api.get(key, "/sessions?userId=" + user))).isEmpty();
        assertThat(jdbc.sql("select count(*) from conversation_imports where tenant_id = cast(? as uuid)")
                        .param(tenantId)
                        .query(Long.class)
                        .single())
                .isZero();
        // What comes after the erasure starts from nothing: the export imports whole again.
        assertThat(importChatGpt(key, user, body).body().path("imported").asInt())
                .isEqualTo(5);
    }

    @Test
    void aPartWhoseSessionIsDeletedWhileTheConversationUploadsAgainIsStoredAgainWhole() throws Exception {
        Api.Response created = api.createTenant("export-grow-" + tag);
        String tenantId = created.text("id");
        String key = created.text("apiKey");
        String user = "grow-" + tag;
        Api.Response first = importChatGpt(key, user, export(small("c-grow").json()));
        String firstSession = item(first, "c-grow").path("sessionId").asString();
        ChatGptConversation grown = small("c-grow")
                .text("u2", "user", "And risotto? " + tag, T0.plusSeconds(7200))
                .text("a2", "assistant", "About twenty minutes.", T0.plusSeconds(7201));
        Split split = cutAfter(export(grown.json(), small("c-other").json()), "c-grow");
        CountDownLatch gate = new CountDownLatch(1);

        String answer;
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> imported = clients.submit(() -> TwoPartUpload.post(
                    api.port(),
                    "/users/" + user + "/import/chatgpt",
                    key,
                    "application/json",
                    split.first(),
                    split.rest(),
                    gate));
            try {
                // The import holds the user and reads the export: it read what was stored (the first part) before.
                eventually()
                        .until(() -> exportImportLocks(tenantId, user, "ShareLock", true) == 1 || imported.isDone());
                assertThat(imported.isDone()).isFalse();
                Api.Response deleted = api.send("DELETE", "/sessions/" + firstSession, key, null);
                assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
                gate.countDown();
                answer = imported.get(60, TimeUnit.SECONDS);
            } finally {
                gate.countDown();
            }
        }

        assertThat(answer).startsWith("HTTP/1.1 200");
        List<List<String>> sessions = new ArrayList<>();
        for (JsonNode session : items(api.get(key, "/sessions?userId=" + user))) {
            sessions.add(turnsOf(key, session.path("id").asString()));
        }
        assertThat(sessions)
                .as("the grown conversation's session, and the other's")
                .containsExactlyInAnyOrder(
                        List.of(
                                "How long do I boil pasta? " + tag,
                                "About ten minutes.",
                                "And risotto? " + tag,
                                "About twenty minutes."),
                        List.of("How long do I boil pasta? " + tag, "About ten minutes."));
    }

    @Test
    void theFirstPartsSessionDeletedAnotherImportStoresItAgain() {
        String key = api.newTenant();
        String user = "parts-" + tag;
        String firstSession = item(
                        importChatGpt(key, user, export(small("c-parts").json())), "c-parts")
                .path("sessionId")
                .asString();
        ChatGptConversation grown = small("c-parts")
                .text("u2", "user", "And risotto? " + tag, T0.plusSeconds(7200))
                .text("a2", "assistant", "About twenty minutes.", T0.plusSeconds(7201));
        byte[] body = export(grown.json());
        assertThat(item(importChatGpt(key, user, body), "c-parts")
                        .path("messages")
                        .asInt())
                .isEqualTo(2);
        assertThat(api.send("DELETE", "/sessions/" + firstSession, key, null).status())
                .isEqualTo(200);

        Api.Response again = importChatGpt(key, user, body);

        JsonNode restored = item(again, "c-parts");
        assertThat(restored.path("status").asString()).as(again.raw()).isEqualTo("imported");
        assertThat(turnsOf(key, restored.path("sessionId").asString()))
                .containsExactly("How long do I boil pasta? " + tag, "About ten minutes.");
        assertThat(item(importChatGpt(key, user, body), "c-parts")
                        .path("status")
                        .asString())
                .isEqualTo("unchanged");
    }
}
