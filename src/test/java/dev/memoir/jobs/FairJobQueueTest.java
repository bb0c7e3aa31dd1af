package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** Background jobs take turns between tenants: a quiet tenant's job does not wait behind a busy tenant's backlog. */
class FairJobQueueTest extends IntegrationTest {

    @Autowired
    JobRunner runner;

    @Autowired
    JobProperties properties;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    /** A session with a little dialogue, closed: its summary job is queued. */
    private String closedSession(String key, String userId) {
        String session = api.newSession(key, userId, null);
        api.importTurns(key, session, "I grow tomatoes on my balcony " + tag, "Lovely.");
        assertThat(api.close(key, session).status()).isEqualTo(202);
        return session;
    }

    private Instant summaryFinishedAt(String key, String session) {
        for (JsonNode job : api.get(key, "/sessions/" + session).body().path("jobs")) {
            if (job.path("task").asString().equals("session-summary") && job.path("state").asString().equals("done")) {
                return Instant.parse(job.path("finishedAt").asString());
            }
        }
        return null;
    }

    @Test
    void aQuietTenantsJobRunsAfterAtMostOneJobPerWorkerThreadOfABusyTenantsBacklog() {
        String busy = api.newTenant();
        String quiet = api.newTenant();
        List<String> backlog = new ArrayList<>();
        String quietSession;
        // Queued while no runner takes jobs, as a backlog stands: the busy tenant's 30 jobs, then the quiet one's.
        runner.stop();
        try {
            for (int i = 0; i < 30; i++) {
                backlog.add(closedSession(busy, "busy-" + i));
            }
            quietSession = closedSession(quiet, "quiet");
        } finally {
            runner.start();
        }

        eventually().until(() -> backlog.stream().allMatch(s -> summaryFinishedAt(busy, s) != null)
                && summaryFinishedAt(quiet, quietSession) != null);

        Instant quietDone = summaryFinishedAt(quiet, quietSession);
        long busyBefore = backlog.stream().map(s -> summaryFinishedAt(busy, s)).filter(quietDone::isAfter).count();
        // Served first come, first served, the quiet tenant's job would run after all 30.
        assertThat(busyBefore).as("busy jobs done before the quiet tenant's").isLessThanOrEqualTo(properties.threads());
    }
}
