package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.sun.net.httpserver.HttpServer;

import dev.memoir.support.Api;
import dev.memoir.support.Json;
import dev.memoir.support.SeparateDeployment;

import tools.jackson.databind.JsonNode;

/**
 * The recurring jobs run on their own in a started service: nothing here calls a job's method. The service is a
 * deployment of its own (its own schema, so its scheduled_tasks start empty and no other instance runs its jobs)
 * with intervals of a second or two.
 */
class RecurringJobsTest {

    private static SeparateDeployment service;
    private static JdbcClient jdbc;

    private Api api;

    @BeforeAll
    static void startTheService() {
        service = SeparateDeployment.start(
                "recurring_jobs_test",
                Map.ofEntries(
                        Map.entry("memoir.retention.purge-interval", "1s"),
                        Map.entry("memoir.session.idle-close-after", "2s"),
                        Map.entry("memoir.session.idle-check-every", "1s"),
                        Map.entry("memoir.webhooks.keep-delivered", "1s"),
                        Map.entry("memoir.webhooks.purge-every", "1s"),
                        Map.entry("memoir.context-traces.keep", "1m"),
                        Map.entry("memoir.context-traces.purge-every", "1s"),
                        Map.entry("memoir.usage.flush-every", "200ms"),
                        Map.entry("memoir.usage.keep-calls", "3s"),
                        Map.entry("memoir.usage.purge-every", "1s"),
                        Map.entry("memoir.audit.seal-every", "1s"),
                        Map.entry("memoir.audit.keep-for", "1m"),
                        Map.entry("memoir.audit.purge-every", "1s")));
        jdbc = service.bean(JdbcClient.class);
    }

    @AfterAll
    static void stopTheService() {
        if (service != null) {
            service.close();
        }
    }

    private Api api() {
        if (api == null) {
            api = service.api();
        }
        return api;
    }

    private static ConditionFactory withinSeconds(int seconds) {
        return Awaitility.await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(200));
    }

    private static long rows(String table, String column, String id) {
        return jdbc.sql("select count(*) from " + table + " where " + column + " = cast(:id as uuid)")
                .param("id", id)
                .query(Long.class)
                .single();
    }

    private static long scheduledRows(String taskName) {
        return jdbc.sql("select count(*) from scheduled_tasks where task_name = ? and task_instance = ?")
                .params(taskName, RecurringTask.INSTANCE)
                .query(Long.class)
                .single();
    }

    @Test
    void everyRecurringJobTheFeaturesDeclareHasItsRowOnceTheServiceHasStarted() {
        List<String> recurring = service.context().getBeansOfType(Task.class).values().stream()
                .filter(RecurringTask.class::isInstance)
                .map(Task::getName)
                .sorted()
                .toList();

        // The three known today, so that this test cannot pass by finding none; any added later is checked too.
        assertThat(recurring)
                .contains("idle-session-close", "memory-purge", "webhook-purge", "context-trace-purge", "usage-purge");
        assertThat(recurring)
                .allSatisfy(name -> assertThat(scheduledRows(name))
                        .as("rows of recurring job %s in scheduled_tasks", name)
                        .isEqualTo(1));
    }

    @Test
    void aSearchsUsageIsWrittenOnItsOwnAndItsRequestRowPurgedAfterKeepCallsWhileTheHourlySumStays() {
        Api.Response tenant = api().createTenant("usage-" + UUID.randomUUID());
        String key = tenant.text("apiKey");
        String tenantId = tenant.text("id");
        String query = "usage of a search " + UUID.randomUUID();
        Api.Response search = api().get(key, "/memory?userId=uma&query=" + query.replace(" ", "+"));
        assertThat(search.status()).as(search.raw()).isEqualTo(200);

        // Nothing here writes it: the recorder's own schedule does, then the usage-purge job deletes the row.
        withinSeconds(10).until(() -> rows("usage_calls", "tenant_id", tenantId) == 1);
        assertThat(rows("usage_hours", "tenant_id", tenantId)).isEqualTo(1);
        withinSeconds(20).until(() -> rows("usage_calls", "tenant_id", tenantId) == 0);
        assertThat(jdbc.sql("select step || ' ' || calls from usage_hours where tenant_id = cast(:id as uuid)")
                        .param("id", tenantId)
                        .query(String.class)
                        .single())
                .isEqualTo("embedding-query 1");
        assertThat(scheduledRows("usage-purge")).isEqualTo(1);
    }

    @Test
    void theRetentionJobPurgesAnExpiredFactWithItsRevisionsAndPassagesOnItsOwn() {
        String key = api().newTenant();
        String tag = UUID.randomUUID().toString();
        String id = api().addFact(
                        key,
                        "ann",
                        "Ann's door code is 4711 " + tag + " " + "word ".repeat(400),
                        "expiresAt",
                        Instant.now().plus(Duration.ofDays(1)));
        Api.Response edited = api().send(
                        "PATCH",
                        "/memory/" + id,
                        key,
                        Json.object("text", "Ann's door code is 0815 " + tag + " " + "word ".repeat(400)));
        assertThat(edited.status()).as(edited.raw()).isEqualTo(200);
        assertThat(rows("memory_revisions", "memory_id", id)).isPositive();
        assertThat(rows("memory_passages", "memory_id", id)).isPositive();

        // A day passes: the fact is now expired, and only the recurring purge can delete it.
        jdbc.sql("update memory_records set expires_at = now() - interval '1 second' where id = cast(:id as uuid)")
                .param("id", id)
                .update();

        withinSeconds(20).until(() -> rows("memory_records", "id", id) == 0);
        assertThat(rows("memory_revisions", "memory_id", id)).isZero();
        assertThat(rows("memory_passages", "memory_id", id)).isZero();
        assertThat(scheduledRows("memory-purge")).isEqualTo(1);
    }

    @Test
    void theIdleSessionJobClosesASessionLeftOpenAndItsCloseJobsRun() {
        String key = api().newTenant();
        String session = api().newSession(key, "lea", null);
        Api.Response imported = api().importTurns(key, session, "I restore old clocks", "What a craft.");
        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);

        withinSeconds(20)
                .until(() ->
                        api().get(key, "/sessions/" + session).text("status").equals("closed"));
        withinSeconds(20).until(() -> {
            JsonNode jobs = api().get(key, "/sessions/" + session).body().path("jobs");
            boolean summaryQueued = false;
            for (JsonNode job : jobs) {
                if (!job.path("state").asString().equals("done")) {
                    return false;
                }
                summaryQueued |= job.path("task").asString().equals("session-summary");
            }
            return summaryQueued;
        });
        JsonNode summaries =
                api().get(key, "/memory?userId=lea&kind=summary").body().path("items");
        assertThat(summaries).hasSize(1);
        assertThat(summaries.get(0).path("provenance").path("sessionId").asString())
                .isEqualTo(session);
        assertThat(scheduledRows("idle-session-close")).isEqualTo(1);
    }

    @Test
    void theWebhookPurgeDeletesADeliveredDeliveryOnItsOwnOnceItsKeepIsOver() throws Exception {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            String key = api().newTenant();
            Api.Response endpoint = api().send(
                            "POST",
                            "/webhooks",
                            key,
                            Json.object(
                                    "url",
                                    "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
                                    "events",
                                    List.of("memory.created")));
            assertThat(endpoint.status()).as(endpoint.raw()).isEqualTo(201);
            String delivery = api().send("POST", "/webhooks/" + endpoint.text("id") + "/test", key, null)
                    .text("deliveryId");
            withinSeconds(20)
                    .until(() -> jdbc.sql("select count(*) from webhook_deliveries where id = cast(:id as uuid) "
                                            + "and delivered_at is not null")
                                    .param("id", delivery)
                                    .query(Long.class)
                                    .single()
                            == 1);

            withinSeconds(20).until(() -> rows("webhook_deliveries", "id", delivery) == 0);
            assertThat(scheduledRows("webhook-purge")).isEqualTo(1);
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void theContextTracePurgeDeletesATraceOnItsOwnOnceItsKeepIsOver() {
        String key = api().newTenant();
        Api.Response context = api().send(
                        "POST", "/context", key, Json.object("userId", "pia", "query", "What did I plant in spring?"));
        assertThat(context.status()).as(context.raw()).isEqualTo(200);
        String id = context.text("id");
        assertThat(rows("context_traces", "id", id)).isEqualTo(1);
        // Kept a minute: made older than that, as a week-old trace would be.
        jdbc.sql("update context_traces set created_at = now() - interval '2 minutes' where id = cast(:id as uuid)")
                .param("id", id)
                .update();

        withinSeconds(20).until(() -> rows("context_traces", "id", id) == 0);
        assertThat(scheduledRows("context-trace-purge")).isEqualTo(1);
        assertThat(api().get(key, "/context/" + id).status()).isEqualTo(404);
    }

    @Test
    void theAuditPurgeCutsATenantsOldSealedEntriesOnItsOwnAndItsChainStillVerifies() {
        Api.Response tenant = api().createTenant("audit-purge-" + UUID.randomUUID());
        String key = tenant.text("apiKey");
        String tenantId = tenant.text("id");
        api().addFact(key, "ona", "Ona rows on the lake.");
        api().addFact(key, "ona", "Ona rows at dawn.");
        withinSeconds(20)
                .until(() -> auditEntries(tenantId, "seq is null") == 0 && auditEntries(tenantId, "true") >= 2);
        long last = jdbc.sql("select max(seq) from audit_entries where tenant_id = cast(:t as uuid)")
                .param("t", tenantId)
                .query(Long.class)
                .single();
        // Every entry but the last made older than memoir.audit.keep-for (a minute here), as two-year-old ones would
        // be.
        jdbc.sql("""
                        update audit_entries set recorded_at = now() - interval '2 minutes'
                        where tenant_id = cast(:t as uuid) and seq < :last""").param("t", tenantId).param("last", last).update();

        withinSeconds(20).until(() -> auditEntries(tenantId, "true") == 1);
        assertThat(scheduledRows("audit-purge")).isEqualTo(1);
        JsonNode verified = api().get(key, "/audit/verify").body();
        assertThat(verified.path("intact").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.path("firstSeq").asLong()).isEqualTo(last);
    }

    private static long auditEntries(String tenantId, String condition) {
        return jdbc.sql("select count(*) from audit_entries where tenant_id = cast(:t as uuid) and " + condition)
                .param("t", tenantId)
                .query(Long.class)
                .single();
    }
}
