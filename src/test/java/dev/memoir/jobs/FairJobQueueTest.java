package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.support.IntegrationTest;
import dev.memoir.tenant.TenantId;

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
            if (job.path("task").asString().equals("session-summary")
                    && job.path("state").asString().equals("done")) {
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

        eventually()
                .until(() -> backlog.stream().allMatch(s -> summaryFinishedAt(busy, s) != null)
                        && summaryFinishedAt(quiet, quietSession) != null);

        Instant quietDone = summaryFinishedAt(quiet, quietSession);
        long busyBefore = backlog.stream()
                .map(s -> summaryFinishedAt(busy, s))
                .filter(quietDone::isAfter)
                .count();
        // Served first come, first served, the quiet tenant's job would run after all 30.
        assertThat(busyBefore).as("busy jobs done before the quiet tenant's").isLessThanOrEqualTo(properties.threads());
    }

    @Autowired
    Jobs jobs;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transaction;

    private int priorityOf(String id) {
        return jdbc.sql(
                        "select priority from scheduled_tasks where task_name = 'session-summary' and task_instance = ?")
                .param(id)
                .query(Integer.class)
                .single();
    }

    @Test
    void aJobQueuedAfterItsTenantsBacklogShrankIsNotRankedAheadOfTheTenantsOlderJobs() {
        TenantId tenant = new TenantId(UUID.randomUUID());
        // Jobs for sessions that do not exist: each finds nothing to write once a runner takes it.
        TaskDescriptor<Void> summary = TaskDescriptor.of("session-summary", Void.class);
        List<String> ids = new ArrayList<>();
        runner.stop();
        try {
            for (int i = 0; i < 5; i++) {
                String id = UUID.randomUUID().toString();
                transaction.executeWithoutResult(status -> jobs.queue(summary, tenant, id));
                ids.add(id);
            }
            // The first four ran, as a busy tenant's backlog drains; the fifth, queued behind four, still waits.
            for (String ran : ids.subList(0, 4)) {
                jdbc.sql("delete from scheduled_tasks where task_name = 'session-summary' and task_instance = ?")
                        .param(ran)
                        .update();
                jdbc.sql("update job_runs set finished_at = now() where task_name = 'session-summary' "
                                + "and task_instance = ?")
                        .param(ran)
                        .update();
            }
            String newest = UUID.randomUUID().toString();
            transaction.executeWithoutResult(status -> jobs.queue(summary, tenant, newest));

            assertThat(priorityOf(newest))
                    .as("the newest job, queued behind one")
                    .isLessThanOrEqualTo(priorityOf(ids.get(4)));
        } finally {
            runner.start();
        }
    }
}
