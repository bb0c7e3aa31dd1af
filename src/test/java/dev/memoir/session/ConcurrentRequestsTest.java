package dev.memoir.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/** Requests that race on one memory, one reply or one session: none fails with 500, none loses work. */
class ConcurrentRequestsTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString();

    private static <T> List<T> all(int count, IntFunction<Callable<T>> task) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(task.apply(i)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }

    private static Map<Integer, Integer> countByStatus(List<Api.Response> responses) {
        Map<Integer, Integer> counts = new HashMap<>();
        responses.forEach(r -> counts.merge(r.status(), 1, Integer::sum));
        return counts;
    }

    @Test
    void twentyConcurrentEditsOfOneMemoryAreAppliedOneAfterAnotherWithNoneLost() throws Exception {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"write\": [\"history\"], \"read\": [\"history\"]}");
        api.importTurns(key, session, "I keep bees " + tag);
        String id =
                items(api.get(key, "/memory?userId=u")).getFirst().path("id").asString();

        List<Api.Response> edits =
                all(20, i -> () -> api.send("PATCH", "/memory/" + id, key, Json.object("text", "edit " + i)));

        assertThat(countByStatus(edits)).isEqualTo(Map.of(200, 20));
        List<JsonNode> revisions = items(api.get(key, "/memory/" + id + "/revisions"));
        assertThat(revisions)
                .extracting(r -> r.path("version").asInt())
                .doesNotHaveDuplicates()
                .hasSize(21);
        assertThat(api.get(key, "/memory/" + id).body().path("version").asInt()).isEqualTo(21);
    }

    @Test
    void tenConcurrentFirstFeedbacksOnOneReplyMakeOneEpisodeAndNoServerError() throws Exception {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        String reply =
                api.chat(key, session, "Where was the band formed? " + tag).text("turnId");

        List<Api.Response> feedbacks = all(
                10,
                i -> () -> api.send(
                        "POST", "/reflection/feedback", key, Json.object("turnId", reply, "verdict", "correct")));

        Map<Integer, Integer> statuses = countByStatus(feedbacks);
        assertThat(statuses.keySet()).as("statuses %s", statuses).isSubsetOf(200, 409);
        assertThat(statuses.get(200)).isEqualTo(1);
        assertThat(feedbacks.stream()
                        .filter(f -> f.status() == 200)
                        .map(f -> f.text("episodeId"))
                        .distinct())
                .hasSize(1);
    }

    @Test
    void twentyConcurrentChatsInOneSessionEachAnswerTheirOwnQuestionAndTakeFeedback() throws Exception {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.delayed(
                        Duration.ofMillis((long) (Math.random() * 300)),
                        "{\"reply\": "
                                + Api.quote("Re: " + call.messages().getLast().content()) + ", \"remember\": false}"));

        List<Api.Response> chats = all(20, i -> () -> api.chat(key, session, "Question " + i + " " + tag));

        assertThat(countByStatus(chats)).isEqualTo(Map.of(200, 20));
        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        Map<String, JsonNode> byId = new HashMap<>();
        turns.forEach(t -> byId.put(t.path("id").asString(), t));
        for (int i = 0; i < chats.size(); i++) {
            Api.Response chat = chats.get(i);
            assertThat(chat.text("reply")).isEqualTo("Re: Question " + i + " " + tag);
            JsonNode replyTurn = byId.get(chat.text("turnId"));
            assertThat(replyTurn.path("replyTo").asString()).isEqualTo(chat.text("userTurnId"));
            assertThat(byId.get(chat.text("userTurnId")).path("content").asString())
                    .isEqualTo("Question " + i + " " + tag);
        }
        List<Api.Response> feedbacks = all(
                20,
                i -> () -> api.send(
                        "POST",
                        "/reflection/feedback",
                        key,
                        Json.object("turnId", chats.get(i).text("turnId"), "verdict", "correct")));
        assertThat(countByStatus(feedbacks)).isEqualTo(Map.of(200, 20));
    }

    @Test
    void repliesInFlightWhenTheSessionClosesAreStillStored() throws Exception {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.delayed(
                        Duration.ofMillis(1500), "{\"reply\": \"Late but kept.\", \"remember\": false}"));

        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Api.Response>> chats = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = i;
                chats.add(pool.submit(() -> api.chat(key, session, "Still there? " + n + " " + tag)));
            }
            eventually()
                    .until(() ->
                            fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).size() == 10);
            assertThat(api.close(key, session).status()).isEqualTo(202);

            for (Future<Api.Response> chat : chats) {
                assertThat(chat.get().status()).isEqualTo(200);
            }
        }
        JsonNode stored = api.get(key, "/sessions/" + session).body();
        assertThat(stored.path("status").asString()).isEqualTo("closed");
        assertThat(stored.path("turns")).hasSize(20);
        assertThat(api.chat(key, session, "And now? " + tag).status())
                .as("a new message after the close")
                .isEqualTo(409);
    }

    /**
     * A chat whose body arrives slowly: it holds one of its tenant's write permits from the moment its headers are
     * read until it is answered, for as long as the test wants, without depending on how fast the machine reaches
     * the model (a model held longer than the client's timeout would fail the reply instead).
     */
    private static final class SlowChat implements AutoCloseable {
        private final Socket socket;
        private final byte[] body;

        SlowChat(int port, String key, String session, String message) throws IOException {
            body = Json.object("sessionId", session, "message", message).getBytes(StandardCharsets.UTF_8);
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(20_000);
            String head = "POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body, 0, 5);
            socket.getOutputStream().flush();
        }

        /** Whether the server has answered already, before the whole body was sent. */
        boolean answered() {
            try {
                return socket.getInputStream().available() > 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Sends the rest of the body and answers the response's status code. */
        int finish() throws IOException {
            socket.getOutputStream().write(body, 5, body.length - 5);
            socket.getOutputStream().flush();
            return status();
        }

        int status() throws IOException {
            String statusLine = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The instance's writing requests running or waiting for their turn, as its metrics show them. */
    private double writes(String which) {
        return api.get(Api.BOOTSTRAP_KEY, "/actuator/metrics/memoir.writes." + which)
                .body()
                .path("measurements")
                .get(0)
                .path("value")
                .asDouble();
    }

    @Test
    void aQuietTenantsChatStartsAtOnceWhileABusyTenantRunsAllItMayAndQueuesMoreAndNobodyIsRefused() throws Exception {
        String key = api.newTenant();
        String quiet = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        String quietSession = api.newSession(quiet, "u", "{\"reflectionRounds\": 0}");
        double runningBefore = writes("running");

        // The busy tenant runs as many writes as one tenant may (24 of the instance's 32 by default), queues more,
        // and closes its session meanwhile; each held chat keeps its place until the test sends the rest of its body.
        List<SlowChat> running = new ArrayList<>();
        List<SlowChat> queued = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 24; i++) {
                running.add(new SlowChat(api.port(), key, session, "Busy " + i + " " + tag));
            }
            eventually().until(() -> writes("running") >= runningBefore + 24);
            for (int i = 0; i < 5; i++) {
                queued.add(new SlowChat(api.port(), key, session, "Queued " + i + " " + tag));
            }
            eventually().until(() -> writes("waiting") == 5);

            // The places the busy tenant may not take are there for others, however long its chats take.
            assertThat(api.chat(quiet, quietSession, "Hello " + tag).status()).isEqualTo(200);
            assertThat(queued).noneMatch(SlowChat::answered);
            assertThat(writes("waiting")).isEqualTo(5);

            Future<Api.Response> close = pool.submit(() -> api.close(key, session));
            assertThat(api.get(key, "/sessions/" + session).status())
                    .as("reads never wait")
                    .isEqualTo(200);
            Map<Integer, Integer> statuses = new HashMap<>();
            for (SlowChat chat : running) {
                statuses.merge(chat.finish(), 1, Integer::sum);
            }
            for (SlowChat chat : queued) {
                statuses.merge(chat.finish(), 1, Integer::sum);
            }
            assertThat(statuses)
                    .as("a chat answered after the close finds the session closed")
                    .containsOnlyKeys(200, 409);
            assertThat(statuses.values().stream().mapToInt(Integer::intValue).sum())
                    .isEqualTo(29);
            assertThat(close.get().status()).as("the close waited for its turn").isEqualTo(202);
        } finally {
            for (SlowChat chat : running) {
                chat.close();
            }
            for (SlowChat chat : queued) {
                chat.close();
            }
        }
        eventually().until(() -> writes("waiting") == 0);
    }
}
