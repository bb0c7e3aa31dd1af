package dev.memoir.session.closing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.session.store.IdleSession;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.SecondInstance;

/** Sessions a client never closes still get the memory written at a close. */
class IdleSessionCloseTest extends IntegrationTest {

    @Autowired
    IdleSessionCloser closer;

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private void idleFor(String session, String interval) {
        jdbc.sql("update sessions set updated_at = now() - cast(:interval as interval) where id = :id")
                .param("interval", interval)
                .param("id", UUID.fromString(session))
                .update();
    }

    @Test
    void aSessionIdleLongerThanTheSettingIsClosedAndItsSummaryWritten() {
        String key = api.newTenant();
        String idle = api.newSession(key, "lea", null);
        api.importTurns(key, idle, "I restore old clocks " + tag, "What a craft.");
        String recent = api.newSession(key, "lea", null);
        api.importTurns(key, recent, "I also bake bread " + tag, "Nice.");
        idleFor(idle, "31 minutes");
        idleFor(recent, "29 minutes");

        assertThat(closer.closeIdleSessions()).isGreaterThanOrEqualTo(1);

        assertThat(api.get(key, "/sessions/" + idle).text("status")).isEqualTo("closed");
        assertThat(api.get(key, "/sessions/" + recent).text("status")).isEqualTo("open");
        eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=lea&kind=summary"), "summary"),
                        summaries -> summaries.size() == 1);
        assertThat(ofKind(api.get(key, "/memory?userId=lea&kind=summary"), "summary")
                        .getFirst()
                        .path("provenance")
                        .path("sessionId")
                        .asString())
                .isEqualTo(idle);
    }

    @Test
    void aSessionThatGetsATurnAfterTheCutoffStaysOpen() {
        String key = api.newTenant();
        String session = api.newSession(key, "lea", null);
        api.importTurns(key, session, "I restore old clocks " + tag, "What a craft.");
        idleFor(session, "31 minutes");

        // The job lists the session as idle, then a turn comes before it closes it: it must stay open.
        Instant cutoff = Instant.now().minus(Duration.ofMinutes(30));
        IdleSession idle = sessionCloser.idleOpenSessions(cutoff, 10_000).stream()
                .filter(found -> found.id().equals(UUID.fromString(session)))
                .findFirst()
                .orElseThrow();
        api.importTurns(key, session, "And I fix watches too", "Great.");

        assertThat(sessionCloser.closeIfIdle(idle, cutoff)).isFalse();
        assertThat(api.get(key, "/sessions/" + session).text("status")).isEqualTo("open");
    }

    @Test
    void anIdleSessionIsClosedOnceWhenTwoInstancesLookForIdleSessionsAtOnce() throws Exception {
        String key = api.newTenant();
        String idle = api.newSession(key, "lea", null);
        api.importTurns(key, idle, "I repair old radios " + tag, "Fun.");
        idleFor(idle, "31 minutes");

        try (SecondInstance second = SecondInstance.start();
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> looks = List.of(
                    pool.submit(closer::closeIdleSessions),
                    pool.submit(() -> second.bean(IdleSessionCloser.class).closeIdleSessions()));
            for (Future<Integer> look : looks) {
                look.get();
            }
            assertThat(api.get(key, "/sessions/" + idle).text("status")).isEqualTo("closed");
            eventually()
                    .until(() -> api.get(key, "/sessions/" + idle)
                            .body()
                            .path("jobs")
                            .toString()
                            .contains("\"done\""));
        }
        assertThat(api.get(key, "/sessions/" + idle).body().path("jobs"))
                .as("one close, one summary job")
                .hasSize(1);
        assertThat(fake.calls(c -> c.is(Step.SESSION_SUMMARY) && c.mentions("radios " + tag)))
                .hasSize(1);
        assertThat(ofKind(api.get(key, "/memory?userId=lea&kind=summary"), "summary"))
                .hasSize(1);
    }

    @Autowired
    SessionCloser sessionCloser;
}
