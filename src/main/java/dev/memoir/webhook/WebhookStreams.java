package dev.memoir.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.jobs.Jobs;
import dev.memoir.jobs.TenantJobId;
import dev.memoir.tenant.TenantId;

/**
 * The order of the deliveries of one endpoint and user: each takes the next number of its (endpoint, user) stream
 * when it is queued, and is not sent while an earlier one of the stream waits for its first attempt or a retry. A
 * dead-lettered one no longer holds the stream back. The order lives in the database (the stream's row lock, the
 * jobs' rows), so it holds with any number of instances running the jobs.
 */
@Component
class WebhookStreams {

    private final JdbcClient jdbc;
    private final Jobs jobs;
    private final Duration timeout;

    WebhookStreams(JdbcClient jdbc, Jobs jobs, WebhookProperties properties) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.timeout = properties.timeout();
    }

    /** The next number of the (endpoint, user) stream, taken in the caller's transaction. */
    long nextSeq(TenantId tenant, UUID endpoint, String userId) {
        // The stream's row stays locked until this transaction ends: a concurrent one queueing for the same endpoint
        // and user waits, so the numbers follow the order in which the changes commit.
        return jdbc.sql("""
                insert into webhook_streams (tenant_id, endpoint_id, user_id, last_seq) values (?, ?, ?, 1)
                on conflict (tenant_id, endpoint_id, user_id) do update set last_seq = webhook_streams.last_seq + 1
                returning last_seq""")
                .params(tenant.value(), endpoint, userId)
                .query(Long.class)
                .single();
    }

    /**
     * When the delivery may look again, if an earlier one of its stream is still to be made: one after the last
     * delivered, not delivered, whose job waits for its first attempt or a retry, or runs. One whose job is gone
     * was dead-lettered and holds nothing back; so is one before the last delivered (the stream went past it).
     * The earlier one's job row exists until its outcome is recorded, so of two instances looking at once, each
     * sees the other's earlier delivery either delivered or still queued.
     */
    Optional<Instant> heldBackUntil(UUID tenant, UUID endpoint, String userId, long seq) {
        List<UUID> earlier = jdbc.sql("""
                select id from webhook_deliveries
                where tenant_id = :tenant and endpoint_id = :endpoint and user_id = :user and seq < :seq
                  and delivered_at is null
                  and seq > coalesce((select max(seq) from webhook_deliveries
                                      where tenant_id = :tenant and endpoint_id = :endpoint and user_id = :user
                                        and seq < :seq and delivered_at is not null), 0)
                order by seq""")
                .param("tenant", tenant)
                .param("endpoint", endpoint)
                .param("user", userId)
                .param("seq", seq)
                .query((rs, n) -> rs.getObject("id", UUID.class))
                .list();
        for (UUID before : earlier) {
            Optional<Instant> next =
                    jobs.nextRun(WebhookDeliveryJob.JOB, new TenantJobId(new TenantId(tenant), before));
            if (next.isPresent()) {
                // After the earlier one's attempt has had its time; its success wakes this one sooner (wakeNext).
                Instant now = Instant.now();
                return Optional.of((next.get().isAfter(now) ? next.get() : now).plus(timeout));
            }
        }
        return Optional.empty();
    }

    /** Wakes the next delivery of the stream, which may be waiting for the one just delivered. */
    void wakeNext(UUID tenant, UUID endpoint, String userId, long seq) {
        jdbc.sql("""
                select id from webhook_deliveries
                where tenant_id = ? and endpoint_id = ? and user_id = ? and seq > ? and delivered_at is null
                order by seq limit 1""")
                .params(tenant, endpoint, userId, seq)
                .query((rs, n) -> rs.getObject("id", UUID.class))
                .optional()
                .ifPresent(next -> jobs.runNow(WebhookDeliveryJob.JOB, new TenantJobId(new TenantId(tenant), next)));
    }
}
