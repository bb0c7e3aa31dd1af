package dev.memoir.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;
import dev.memoir.support.TwoPartUpload;

/**
 * Erasing a user is all or nothing against every other writer of the user: an import in flight, a memory job
 * storing what it wrote, chats arriving meanwhile. It never deadlocks with them, never answers 500, and leaves no
 * row of the user behind; what comes after it starts from nothing.
 */
class UserErasureConcurrencyTest extends IntegrationTest {

    /** Every table that holds rows of a tenant's users. */
    private static final List<String> USER_TABLES = List.of(
            "sessions",
            "turns",
            "episodes",
            "reply_feedback",
            "reply_traces",
            "memory_records",
            "memory_revisions",
            "memory_passages",
            "reranker_feedback",
            "memo_progress",
            "summary_folds",
            "topic_extractions",
            "topic_candidates",
            "job_runs");

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    JdbcClient jdbc;

    @Autowired
    DataSource dataSource;

    private record Tenant(UUID id, String key) {}

    private Tenant newTenant() {
        Api.Response created = api.createTenant("erasure-" + UUID.randomUUID());
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return new Tenant(UUID.fromString(created.text("id")), created.text("apiKey"));
    }

    /** The tenant's rows in every table of user data that holds any (a test's tenant has one user). */
    private Map<String, Long> rowsOf(Tenant tenant) {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : USER_TABLES) {
            long count = jdbc.sql("select count(*) from " + table + " where tenant_id = ?")
                    .param(tenant.id())
                    .query(Long.class)
                    .single();
            if (count > 0) {
                rows.put(table, count);
            }
        }
        return rows;
    }

    /**
     * How many hold (or wait for) the user's locks exclusively: erasing and importing the user take them so (the
     * lock of an export's import, then the user's).
     */
    private long exclusiveUserLocks(Tenant tenant, String userId, boolean granted) {
        return jdbc.sql("""
                select count(*) from pg_locks l,
                     (select hashtextextended(:key, seed) as k from unnest(array[37, 47]) seed) h
                where l.locktype = 'advisory' and l.objsubid = 1 and l.mode = 'ExclusiveLock'
                  and l.classid::bigint = (h.k >> 32) & 4294967295 and l.objid::bigint = h.k & 4294967295
                  and l.granted = :granted""")
                .param("key", tenant.id() + "/" + userId)
                .param("granted", granted)
                .query(Long.class)
                .single();
    }

    /** Backends of this database waiting for a lock. */
    private long waitingForLocks() {
        return jdbc.sql("select count(*) from pg_stat_activity where datname = current_database() "
                        + "and wait_event_type = 'Lock'")
                .query(Long.class)
                .single();
    }

    /** A user with a row in every table an archive restores: dialogue, memories, revisions, passages, feedback. */
    private String archiveOfARichUser() throws Exception {
        Tenant source = newTenant();
        String multiView = "{\"strategy\": \"multi-view\", \"reflectionRounds\": 0}";
        for (int i = 0; i < 3; i++) {
            String session = api.newSession(source.key(), "ann", multiView);
            api.importTurns(
                    source.key(),
                    session,
                    "I restore clock number " + i + " " + tag + ". " + "The pendulum swings slowly. ".repeat(60),
                    "What a craft.",
                    "It takes weeks " + tag,
                    "Wow.");
            api.close(source.key(), session);
        }
        String fact = api.addFact(source.key(), "ann", "Ann lives in Porto " + tag, "supersedes", List.of());
        api.send("PATCH", "/memory/" + fact, source.key(), Json.object("text", "Ann lives in Porto, Portugal " + tag));
        String asking = api.newSession(source.key(), "ann", multiView);
        String question = "Where do I live? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"In Lisbon.\", \"remember\": false, \"citations\": []}"));
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": \"Ann lives in Porto " + tag + ".\"}"));
        String reply = api.chat(source.key(), asking, question).text("turnId");
        Api.Response feedback = api.send(
                "POST",
                "/reflection/feedback",
                source.key(),
                Json.object("turnId", reply, "answer", "I live in Porto."));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);
        eventually()
                .until(() -> ofKind(api.get(source.key(), "/memory?userId=ann&kind=summary"), "summary")
                                .size()
                        == 3);
        HttpResponse<String> export = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/users/ann/export"))
                                .header("Authorization", "Bearer " + source.key())
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(export.statusCode()).as(export.body()).isEqualTo(200);
        for (String type : List.of("session", "turn", "memory", "revision", "passage", "episode", "feedback")) {
            assertThat(export.body()).as("the archive holds a " + type).contains("{\"type\":\"" + type + "\"");
        }
        return export.body();
    }

    @Test
    void anErasureSentDuringAnImportOfTheUserWaitsForItThenLeavesNoRowOfTheUser() throws Exception {
        String archive = archiveOfARichUser();
        long sessions = archive.lines()
                .filter(line -> line.startsWith("{\"type\":\"session\""))
                .count();
        // The import has stored the sessions and turns (not yet committed) when its client pauses.
        int pause = archive.indexOf("{\"type\":\"memory\"");
        byte[] bytes = archive.getBytes(StandardCharsets.UTF_8);
        int pauseAt = archive.substring(0, pause).getBytes(StandardCharsets.UTF_8).length;
        byte[] first = java.util.Arrays.copyOfRange(bytes, 0, pauseAt);
        byte[] rest = java.util.Arrays.copyOfRange(bytes, pauseAt, bytes.length);
        Tenant target = newTenant();
        CountDownLatch gate = new CountDownLatch(1);

        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> imported = clients.submit(() -> TwoPartUpload.post(
                    api.port(), "/users/bob/import", target.key(), "application/x-ndjson", first, rest, gate));
            try {
                eventually().until(() -> exclusiveUserLocks(target, "bob", true) >= 1 || imported.isDone());
                assertThat(imported.isDone())
                        .as(
                                "the import ended before its client sent all of it: %s",
                                imported.isDone() ? imported.get() : "")
                        .isFalse();
                Future<Api.Response> erased =
                        clients.submit(() -> api.send("DELETE", "/memory?userId=bob", target.key(), null));
                eventually().until(() -> exclusiveUserLocks(target, "bob", false) == 1);
                gate.countDown();

                assertThat(imported.get(30, TimeUnit.SECONDS)).startsWith("HTTP/1.1 201");
                Api.Response erasure = erased.get(30, TimeUnit.SECONDS);
                assertThat(erasure.status()).as(erasure.raw()).isEqualTo(200);
                assertThat(erasure.body().path("sessions").asLong())
                        .as("the erasure came after the import")
                        .isEqualTo(sessions);
            } finally {
                gate.countDown();
            }
        }

        assertThat(rowsOf(target)).as("rows of the erased user").isEmpty();
        assertThat(items(api.get(target.key(), "/sessions?userId=bob"))).isEmpty();
        assertThat(items(api.get(target.key(), "/memory?userId=bob"))).isEmpty();
        // What comes after the erasure starts from nothing, as for a new user: the archive imports again.
        Api.Response again = api.sendWithHeadersAsResponse(
                "POST", "/users/bob/import", target.key(), archive, "Content-Type", "application/x-ndjson");
        assertThat(again.status()).as(again.raw()).isEqualTo(201);
    }

    @Test
    void anErasureWhileAMemoryJobStoresWaitsForItAndErasesWhatItStored() throws Exception {
        Tenant tenant = newTenant();
        String session = api.newSession(tenant.key(), "cleo", null);
        api.importTurns(tenant.key(), session, "I keep bees on the roof " + tag, "How lovely.");
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        onModelCall(call -> call.is(Step.SESSION_SUMMARY) && call.mentions(tag), call -> {
            asked.countDown();
            try {
                // Within the model client's timeout: the job is not to fail, only to be in flight.
                answer.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Answer.sessionSummary("Cleo keeps bees " + tag + ".");
        });

        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
                Connection other = dataSource.getConnection()) {
            api.close(tenant.key(), session);
            assertThat(asked.await(20, TimeUnit.SECONDS))
                    .as("the summary job asked the model")
                    .isTrue();
            // Another transaction holds the session, so that the job, once answered, is caught in its store phase.
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement("select id from sessions where id = ? for update")) {
                lock.setObject(1, UUID.fromString(session));
                lock.executeQuery().close();
            }
            answer.countDown();
            eventually().until(() -> waitingForLocks() >= 1);
            Future<Api.Response> erased =
                    clients.submit(() -> api.send("DELETE", "/memory?userId=cleo", tenant.key(), null));
            eventually().until(() -> waitingForLocks() >= 2);
            other.rollback();

            Api.Response erasure = erased.get(30, TimeUnit.SECONDS);
            assertThat(erasure.status()).as(erasure.raw()).isEqualTo(200);
            assertThat(erasure.body().path("sessions").asInt()).isEqualTo(1);
        } finally {
            answer.countDown();
        }

        eventually()
                .until(() -> jdbc.sql("select count(*) from scheduled_tasks where task_instance = ?")
                                .param(session)
                                .query(Long.class)
                                .single()
                        == 0);
        assertThat(jdbc.sql("select count(*) from failed_jobs where task_instance = ?")
                        .param(session)
                        .query(Long.class)
                        .single())
                .as("dead-lettered jobs")
                .isZero();
        assertThat(rowsOf(tenant)).as("rows of the erased user").isEmpty();
    }

    @Test
    void feedbackWhoseLessonIsBeingLearnedWhenTheUserIsErasedAnswers404AndLeavesNothing() throws Exception {
        Tenant tenant = newTenant();
        String session = api.newSession(tenant.key(), "eve", "{\"strategy\": \"multi-view\", \"reflectionRounds\": 0}");
        String question = "Where do I work? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"At the bakery.\", \"remember\": false, \"citations\": []}"));
        String reply = api.chat(tenant.key(), session, question).text("turnId");
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        onModelCall(call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag), call -> {
            asked.countDown();
            try {
                answer.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Answer.json("{\"reflected_memory\": \"Eve works at the library " + tag + ".\"}");
        });

        Api.Response feedback;
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Api.Response> sent = clients.submit(() -> api.send(
                    "POST",
                    "/reflection/feedback",
                    tenant.key(),
                    Json.object("turnId", reply, "answer", "I work at the library " + tag)));
            assertThat(asked.await(20, TimeUnit.SECONDS))
                    .as("the lesson is being learned")
                    .isTrue();
            Api.Response erasure = api.send("DELETE", "/memory?userId=eve", tenant.key(), null);
            assertThat(erasure.status()).as(erasure.raw()).isEqualTo(200);
            answer.countDown();
            feedback = sent.get(30, TimeUnit.SECONDS);
        } finally {
            answer.countDown();
        }

        // The reply it was about is gone with the user: as for any unknown turn.
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(404);
        assertThat(rowsOf(tenant)).as("rows of the erased user").isEmpty();
    }

    @Test
    void chatsArrivingDuringAnErasureNeverFailAndLeaveNothingOfTheErasedDialogue() throws Exception {
        Tenant tenant = newTenant();
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String session = api.newSession(tenant.key(), "dan", null);
            api.importTurns(
                    tenant.key(),
                    session,
                    "I sail on weekends " + tag + " " + i,
                    "Nice.",
                    "Mostly on the lake " + tag,
                    "Sounds calm.");
            sessions.add(session);
        }
        List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        Api.Response erasure;
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> chats = new ArrayList<>();
            for (String session : sessions) {
                for (int round = 0; round < 3; round++) {
                    int r = round;
                    chats.add(clients.submit(() -> {
                        go.await();
                        statuses.add(api.chat(tenant.key(), session, "Round " + r + " " + tag)
                                .status());
                        String fresh = api.send("POST", "/sessions", tenant.key(), Json.object("userId", "dan"))
                                .text("id");
                        statuses.add(api.chat(tenant.key(), fresh, "New here " + r + " " + tag)
                                .status());
                        return null;
                    }));
                }
            }
            Future<Api.Response> erased = clients.submit(() -> {
                go.await();
                return api.send("DELETE", "/memory?userId=dan", tenant.key(), null);
            });
            go.countDown();
            erasure = erased.get(60, TimeUnit.SECONDS);
            for (Future<?> chat : chats) {
                chat.get(60, TimeUnit.SECONDS);
            }
        }

        assertThat(erasure.status()).as(erasure.raw()).isEqualTo(200);
        // A chat whose session the erasure took answers 404; none fails, none deadlocks.
        assertThat(statuses).hasSize(24).allSatisfy(status -> assertThat(status).isIn(200, 404));
        for (String session : sessions) {
            assertThat(api.get(tenant.key(), "/sessions/" + session).status()).isEqualTo(404);
        }
        // What is left came after the erasure: no memory of an erased session, no turn without its session.
        assertThat(jdbc.sql("""
                select count(*) from memory_records m where m.tenant_id = ? and m.session_id is not null
                  and not exists (select 1 from sessions s where s.id = m.session_id)""").param(tenant.id()).query(Long.class).single())
                .as("memories of erased sessions")
                .isZero();
        assertThat(jdbc.sql("select count(*) from memory_records where tenant_id = ? and text like ?")
                        .params(tenant.id(), "%sail on weekends%")
                        .query(Long.class)
                        .single())
                .as("memories of the erased dialogue")
                .isZero();
    }
}
