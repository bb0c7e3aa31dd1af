package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.errors.SseException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streamed replies: {@code "stream": true} on the OpenAI-compatible endpoint, driven by the official OpenAI Java SDK,
 * and POST /chat with Accept: text/event-stream, against a fake model that streams its answer in small chunks.
 */
class StreamingChatTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString();

    private OpenAIClient client(String key) {
        return api.openAi(key);
    }

    private static ChatCompletionCreateParams question(String session, String message) {
        return ChatCompletionCreateParams.builder()
                .model("any")
                .user("alice")
                .putAdditionalHeader("X-Memoir-Session", session)
                .addUserMessage(message)
                .build();
    }

    private static String content(ChatCompletionChunk chunk) {
        return chunk.choices().isEmpty()
                ? ""
                : chunk.choices().getFirst().delta().content().orElse("");
    }

    private List<JsonNode> turns(String key, String session) {
        List<JsonNode> turns = new ArrayList<>();
        api.get(key, "/sessions/" + session).body().path("turns").forEach(turns::add);
        return turns;
    }

    /** The number of the reply prompt's memory entry that holds the text. */
    private static int entryNumber(String systemPrompt, String text) {
        Matcher entry =
                Pattern.compile("(?m)^(\\d+)\\. .*" + Pattern.quote(text)).matcher(systemPrompt);
        assertThat(entry.find()).as(systemPrompt).isTrue();
        return Integer.parseInt(entry.group(1));
    }

    /** A session of alice's whose earlier, closed session says she plays the violin. */
    private String[] tenantWithMemory() {
        String key = api.newTenant();
        return new String[] {key, api.sessionAfterClosedOne(key, "alice", null, "I play the violin " + tag, "Lovely.")};
    }

    @Test
    void aStreamedCompletionArrivesInPiecesAndIsStoredOnceWithItsMemoryDecisionsAsAPlainOne() {
        String[] tenant = tenantWithMemory();
        String message = "What instrument do I play? " + tag;
        String reply = "You play the \"violin\".\nCaf\u00e9 after practice? \ud83c\udfbb";
        // The reply cites the violin utterance by its number, whatever else (the closed session's summary, once its
        // job has run) the memory lists before it.
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(message),
                call -> Answer.json(
                        "{\"reply\": \"You play the \\\"violin\\\".\\nCaf\\u00e9 after practice? \\ud83c\\udfbb\", "
                                + "\"remember\": true, \"citations\": ["
                                + entryNumber(call.systemPrompt(), "I play the violin " + tag) + "]}"));

        List<ChatCompletionChunk> chunks;
        try (StreamResponse<ChatCompletionChunk> stream =
                client(tenant[0]).chat().completions().createStreaming(question(tenant[1], message))) {
            chunks = stream.stream().toList();
        }

        assertThat(chunks.getFirst().choices().getFirst().delta().role())
                .hasValueSatisfying(role -> assertThat(role.asString()).isEqualTo("assistant"));
        List<String> deltas = chunks.stream()
                .map(StreamingChatTest::content)
                .filter(c -> !c.isEmpty())
                .toList();
        assertThat(deltas).hasSizeGreaterThan(3);
        assertThat(String.join("", deltas)).isEqualTo(reply);
        assertThat(chunks.getLast().choices().getFirst().finishReason())
                .hasValueSatisfying(reason -> assertThat(reason.asString()).isEqualTo("stop"));
        assertThat(chunks)
                .extracting(ChatCompletionChunk::id)
                .containsOnly(chunks.getFirst().id());
        assertThat(fake.calls(c -> c.is(Step.REPLY) && c.mentions(message)))
                .hasSize(1)
                .allSatisfy(call -> assertThat(call.streamed()).isTrue());

        List<JsonNode> turns = turns(tenant[0], tenant[1]);
        assertThat(turns)
                .extracting(t ->
                        t.path("role").asString() + ": " + t.path("content").asString())
                .containsExactly("user: " + message, "assistant: " + reply);
        List<UUID> cited = jdbc.sql("select unnest(cited_ids) from reply_traces where turn_id = ?")
                .param(UUID.fromString(turns.get(1).path("id").asString()))
                .query(UUID.class)
                .list();
        assertThat(cited).hasSize(1);
        assertThat(jdbc.sql("select text from memory_records where id = ?")
                        .param(cited.getFirst())
                        .query(String.class)
                        .single())
                .contains("I play the violin " + tag);
        JsonNode conditional = eventually()
                .until(
                        () -> ofKind(api.get(tenant[0], "/memory?userId=alice"), "conditional"),
                        found -> found.size() == 1)
                .getFirst();
        assertThat(conditional.path("provenance").path("turnIds").get(0).asString())
                .isEqualTo(turns.get(0).path("id").asString());
    }

    @Test
    void theReplysTextReachesTheClientWhileTheModelIsStillWriting() {
        String key = api.newTenant();
        String session = api.newSession(key, "alice", null);
        String message = "Take your time " + tag;
        CompletableFuture<Void> resume = new CompletableFuture<>();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(message),
                call -> Answer.heldMidStream(
                        "{\"reply\": \"First part, and then the rest.\", \"remember\": false, \"citations\": []}",
                        6,
                        resume));
        List<String> whileHeld = new ArrayList<>();
        List<String> after = new ArrayList<>();

        try (StreamResponse<ChatCompletionChunk> stream =
                client(key).chat().completions().createStreaming(question(session, message))) {
            Iterator<ChatCompletionChunk> chunks = stream.stream().iterator();
            while (chunks.hasNext()) {
                String content = content(chunks.next());
                if (!content.isEmpty()) {
                    // The model goes on only once the client has seen text: had the service held it back, the model
                    // would wait in vain and end its stream with an error.
                    (resume.isDone() ? after : whileHeld).add(content);
                    resume.complete(null);
                }
            }
        }

        assertThat(whileHeld).isNotEmpty();
        assertThat(String.join("", whileHeld) + String.join("", after)).isEqualTo("First part, and then the rest.");
        assertThat(turns(key, session)).hasSize(2);
    }

    @Test
    void theLastChunkNamesTheStoredTurnsAndUsageComesWhenAsked() {
        String key = api.newTenant();
        String message = "Hello there " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(message),
                call -> Answer.json("{\"reply\": \"Hi! How can I help?\", \"remember\": false, \"citations\": []}"));

        HttpResponse<String> response = api.sendWithHeaders(
                "POST",
                "/v1/chat/completions",
                key,
                Json.object(
                        "user",
                        "bo",
                        "stream",
                        true,
                        "stream_options",
                        Json.fields("include_usage", true),
                        "messages",
                        List.of(Json.fields("role", "user", "content", message))));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        List<Event> events = events(response.body());
        assertThat(events.getLast().data()).isEqualTo("[DONE]");
        JsonNode usage = JSON.readTree(events.get(events.size() - 2).data());
        assertThat(usage.path("choices")).isEmpty();
        assertThat(usage.path("usage").path("completion_tokens").asInt()).isPositive();
        JsonNode finish = JSON.readTree(events.get(events.size() - 3).data());
        assertThat(finish.path("choices").get(0).path("finish_reason").asString())
                .isEqualTo("stop");
        JsonNode memoir = finish.path("memoir");
        List<JsonNode> turns = turns(key, memoir.path("sessionId").asString());
        assertThat(turns)
                .extracting(t -> t.path("id").asString())
                .containsExactly(
                        memoir.path("userTurnId").asString(),
                        memoir.path("turnId").asString());
        assertThat(turns.get(1).path("content").asString()).isEqualTo("Hi! How can I help?");
    }

    @Test
    void aModelFailingMidStreamEndsTheStreamWithAnErrorAndKeepsTheUserTurn() {
        String key = api.newTenant();
        String session = api.newSession(key, "alice", null);
        String message = "Tell me a long story " + tag;
        String story = "Once upon a time there was a story that broke off";
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(message),
                call -> Answer.failingMidStream(
                        "{\"reply\": \"" + story + "\", \"remember\": false, \"citations\": []}", 8));
        List<String> received = new ArrayList<>();

        try (StreamResponse<ChatCompletionChunk> stream =
                client(key).chat().completions().createStreaming(question(session, message))) {
            assertThatThrownBy(() -> stream.stream().forEach(chunk -> received.add(content(chunk))))
                    .isInstanceOfSatisfying(
                            SseException.class, e -> assertThat(e.code()).contains("model-error"));
        }

        String streamed = String.join("", received);
        assertThat(streamed).isNotEmpty();
        assertThat(story).startsWith(streamed).isNotEqualTo(streamed);
        assertThat(turns(key, session))
                .extracting(t ->
                        t.path("role").asString() + ": " + t.path("content").asString())
                .containsExactly("user: " + message);
    }

    @Test
    void aModelFailingBeforeTheFirstEventGetsTheUsualStatusAndErrorBody() {
        String key = api.newTenant();
        String session = api.newSession(key, "alice", null);
        String message = "Are you there? " + tag;
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(message), call -> Answer.error(500));

        Api.Response openAi = api.sendWithHeadersAsResponse(
                "POST",
                "/v1/chat/completions",
                key,
                Json.object(
                        "user",
                        "alice",
                        "stream",
                        true,
                        "messages",
                        List.of(Json.fields("role", "user", "content", message))),
                "X-Memoir-Session",
                session);
        HttpResponse<String> chat = stream(key, session, message);

        assertThat(openAi.status()).isEqualTo(502);
        assertThat(openAi.body().path("error").path("code").asString()).isEqualTo("model-error");
        assertThat(chat.statusCode()).isEqualTo(502);
        assertThat(chat.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(JSON.readTree(chat.body()).path("code").asString()).isEqualTo("model-error");
        assertThat(turns(key, session))
                .extracting(t -> t.path("role").asString())
                .containsExactly("user", "user");
    }

    @Test
    void postChatStreamsDeltasThenTheReplyBodyWhenAskedForAnEventStream() {
        String[] tenant = tenantWithMemory();
        String message = "Which instrument was it again? " + tag;
        String reply = "It was the violin \u2014 you told me before.";
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(message),
                call -> Answer.json("{\"reply\": " + Api.quote(reply) + ", \"remember\": false, \"citations\": [1]}"));

        HttpResponse<String> response = stream(tenant[0], tenant[1], message);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        List<Event> events = events(response.body());
        List<Event> deltas = events.subList(0, events.size() - 1);
        assertThat(deltas)
                .hasSizeGreaterThan(3)
                .allSatisfy(e -> assertThat(e.name()).isEqualTo("delta"));
        assertThat(deltas.stream()
                        .map(e -> JSON.readTree(e.data()).path("text").asString())
                        .reduce("", String::concat))
                .isEqualTo(reply);
        assertThat(events.getLast().name()).isEqualTo("reply");
        JsonNode body = JSON.readTree(events.getLast().data());
        assertThat(body.path("reply").asString()).isEqualTo(reply);
        assertThat(body.path("remembered").asBoolean()).isFalse();
        assertThat(body.path("memories").get(0).path("cited").asBoolean()).isTrue();
        assertThat(turns(tenant[0], tenant[1]))
                .extracting(t -> t.path("id").asString())
                .containsExactly(
                        body.path("userTurnId").asString(), body.path("turnId").asString());
    }

    @Test
    void postChatStreamsAReasonedReplyWholeAndAJsonClientStillGetsJson() {
        String key = api.newTenant();
        String session = api.newSession(key, "alice", null);

        HttpResponse<String> reasoned = api.sendWithHeaders(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", "Think it over " + tag, "reasoning", true),
                "Accept",
                "text/event-stream");
        Api.Response plain = api.sendWithHeadersAsResponse(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", "And now plainly " + tag),
                "Accept",
                "application/json, text/event-stream;q=0.5");

        List<Event> events = events(reasoned.body());
        assertThat(events).extracting(Event::name).containsExactly("delta", "reply");
        JsonNode body = JSON.readTree(events.getLast().data());
        assertThat(JSON.readTree(events.getFirst().data()).path("text").asString())
                .isEqualTo(body.path("reply").asString())
                .isNotBlank();
        assertThat(body.path("episodeId").asString()).isNotBlank();
        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.text("reply")).isNotBlank();
        assertThat(turns(key, session)).hasSize(4);
    }

    /** Whether the message being answered (not an earlier one in the prompt) is of this test and kind. */
    private boolean says(FakeOpenAiServer.ChatCall call, String kind) {
        return call.lastUserMessage().startsWith(kind) && call.lastUserMessage().endsWith(tag);
    }

    @Test
    void streamsGiveBackTheirTenantsWritePermitHoweverTheyEnd() {
        String key = api.newTenant();
        // Conditional memory only: the cheapest turns, as this test makes many.
        String session = api.newSession(
                key, "u", "{\"write\": [\"conditional\"], \"read\": [\"conditional\"], \"reflectionRounds\": 0}");
        onModelCall(
                call -> call.is(Step.REPLY) && says(call, "ends well"),
                call -> Answer.json("{\"reply\": \"Fine.\", \"remember\": false}"));
        onModelCall(call -> call.is(Step.REPLY) && says(call, "fails early"), call -> Answer.error(500));
        onModelCall(
                call -> call.is(Step.REPLY) && says(call, "fails late"),
                call -> Answer.failingMidStream("{\"reply\": \"Half of it\", \"remember\": false}", 4));

        // For each way a response ends (completed, or failed before its first event and answered by the exception
        // handlers), one more stream than the tenant may have writes in flight: a permit kept by every stream that
        // ends that way would refuse the last of them. Failing after the first event completes like ending well.
        for (String kind : List.of("ends well", "fails early")) {
            for (int i = 0; i < 25; i++) {
                HttpResponse<String> response = stream(key, session, kind + " " + i + " " + tag);

                assertThat(response.statusCode()).as(kind + " " + i).isEqualTo(kind.equals("ends well") ? 200 : 502);
                if (kind.equals("ends well")) {
                    assertThat(events(response.body()).getLast().name())
                            .as(kind + " " + i)
                            .isEqualTo("reply");
                }
            }
        }
        HttpResponse<String> failedLate = stream(key, session, "fails late " + tag);

        assertThat(failedLate.statusCode()).isEqualTo(200);
        Event last = events(failedLate.body()).getLast();
        assertThat(last.name()).isEqualTo("error");
        assertThat(JSON.readTree(last.data()).path("code").asString()).isEqualTo("model-error");
        assertThat(JSON.readTree(last.data()).path("status").asInt()).isEqualTo(502);
        assertThat(events(failedLate.body()).getFirst().name()).isEqualTo("delta");
    }

    private HttpResponse<String> stream(String key, String session, String message) {
        return api.sendWithHeaders(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", message),
                "Accept",
                "text/event-stream");
    }

    @Test
    void aClientThatLeavesMidStreamStillHasTheReplyStored() throws Exception {
        String key = api.newTenant();
        String session = api.newSession(key, "alice", null);
        String message = "Tell me everything " + tag;
        CompletableFuture<Void> resume = new CompletableFuture<>();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(message),
                call -> Answer.heldMidStream(
                        "{\"reply\": \"Everything, in great detail.\", \"remember\": false}", 5, resume));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/chat"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.object("sessionId", session, "message", message)))
                .build();

        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader events =
                    new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                assertThat(events.readLine()).isEqualTo("event:delta");
            }
        }
        resume.complete(null);

        eventually().until(() -> turns(key, session).size() == 2);
        assertThat(turns(key, session).get(1).path("content").asString()).isEqualTo("Everything, in great detail.");
    }

    @Test
    void aTenantKeyCannotStreamIntoAnotherTenantsSession() {
        String owner = api.newTenant();
        String intruder = api.newTenant();
        String session = api.newSession(owner, "alice", null);
        api.importTurns(owner, session, "My secret is 4242 " + tag, "Noted.");
        String message = "What is my secret? " + tag;

        assertThatThrownBy(() -> {
                    try (StreamResponse<ChatCompletionChunk> stream =
                            client(intruder).chat().completions().createStreaming(question(session, message))) {
                        stream.stream().toList();
                    }
                })
                .isInstanceOf(NotFoundException.class);
        Api.Response openAi = api.sendWithHeadersAsResponse(
                "POST",
                "/v1/chat/completions",
                intruder,
                Json.object(
                        "user",
                        "alice",
                        "stream",
                        true,
                        "messages",
                        List.of(Json.fields("role", "user", "content", message))),
                "X-Memoir-Session",
                session);
        HttpResponse<String> chat = stream(intruder, session, message);

        assertThat(openAi.status()).isEqualTo(404);
        assertThat(openAi.body().path("error").path("code").asString()).isEqualTo("not-found");
        assertThat(chat.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(chat.body()).path("code").asString()).isEqualTo("not-found");
        assertThat(turns(owner, session)).hasSize(2);
        assertThat(fake.calls(c -> c.mentions(message))).isEmpty();
    }

    private record Event(String name, String data) {}

    /** The events of a server-sent event stream (a field's one optional leading space dropped, as SSE says). */
    private static List<Event> events(String body) {
        List<Event> events = new ArrayList<>();
        for (String block : body.replace("\r\n", "\n").split("\n\n")) {
            String name = "message";
            StringBuilder data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event:")) {
                    name = field(line, "event:");
                } else if (line.startsWith("data:")) {
                    data = data == null ? new StringBuilder() : data.append('\n');
                    data.append(field(line, "data:"));
                }
            }
            if (data != null) {
                events.add(new Event(name, data.toString()));
            }
        }
        return events;
    }

    private static String field(String line, String prefix) {
        String value = line.substring(prefix.length());
        return value.startsWith(" ") ? value.substring(1) : value;
    }
}
