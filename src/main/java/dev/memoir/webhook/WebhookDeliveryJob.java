package dev.memoir.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.jobs.Jobs;

/**
 * The {@code webhook-delivery} job: one attempt to deliver a queued delivery, signed. A failure (no answer in time,
 * or an answer other than 2xx) is retried with back-off and jitter, and after the last attempt the job waits in the
 * dead-letter list, where the operator sees it and can run it again. The delivery's id is the same on every attempt
 * ({@code webhook-id}), so the receiver can drop a repeat.
 */
@Component
class WebhookDeliveryJob {

    static final TaskDescriptor<Void> JOB = TaskDescriptor.of("webhook-delivery");

    /** A delivery's attempt failed; its job is retried. */
    static final class DeliveryFailed extends RuntimeException {
        DeliveryFailed(String message) {
            super(message, null, false, false);
        }
    }

    private record Pending(
            String url,
            String secret,
            String payload,
            Instant createdAt,
            UUID endpoint,
            String userId,
            Long seq,
            int attempts) {}

    private final JdbcClient jdbc;
    private final WebhookStreams streams;
    private final WebhookSender sender;
    private final MeterRegistry meters;

    WebhookDeliveryJob(JdbcClient jdbc, Jobs jobs, WebhookStreams streams, WebhookSender sender, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.streams = streams;
        this.sender = sender;
        this.meters = meters;
        Gauge.builder("memoir.webhooks.queued", jobs, j -> j.queued(JOB))
                .description("Webhook deliveries waiting for their first attempt, a retry, or an earlier delivery "
                        + "of their user; dead-lettered ones are counted in memoir.jobs.failed")
                .register(meters);
    }

    /**
     * One attempt to deliver, by {@code <tenantId>:<deliveryId>}; or, while an earlier delivery of the same endpoint
     * and user is still to be made, when to look again.
     */
    Optional<Instant> deliver(String jobId) {
        int slash = jobId.indexOf(':');
        UUID tenant = UUID.fromString(jobId.substring(0, slash));
        UUID id = UUID.fromString(jobId.substring(slash + 1));
        Optional<Pending> pending = jdbc.sql("""
                select e.url, e.secret, d.payload, d.created_at, d.endpoint_id, d.user_id, d.seq, d.attempts
                from webhook_deliveries d
                join webhook_endpoints e on e.id = d.endpoint_id and e.tenant_id = d.tenant_id
                where d.id = ? and d.tenant_id = ? and d.delivered_at is null""")
                .params(id, tenant)
                .query((rs, n) -> new Pending(
                        rs.getString("url"),
                        rs.getString("secret"),
                        rs.getString("payload"),
                        SqlTimes.instant(rs, "created_at"),
                        rs.getObject("endpoint_id", UUID.class),
                        rs.getString("user_id"),
                        (Long) rs.getObject("seq", Long.class),
                        rs.getInt("attempts")))
                .optional();
        if (pending.isEmpty()) {
            // Delivered already (a retry after a crash), or its endpoint was deleted.
            return Optional.empty();
        }
        Pending delivery = pending.get();
        // A delivery attempted once already went out in its turn; one operator runs again after the dead-letter list
        // is sent when it comes, whatever was sent meanwhile.
        if (delivery.seq() != null && delivery.attempts() == 0) {
            Optional<Instant> wait =
                    streams.heldBackUntil(tenant, delivery.endpoint(), delivery.userId(), delivery.seq());
            if (wait.isPresent()) {
                meters.counter("memoir.webhooks.deliveries", "outcome", "held").increment();
                return wait;
            }
        }
        WebhookSender.Attempt attempt = sender.send(delivery.url(), delivery.secret(), id, delivery.payload());
        if (!attempt.delivered()) {
            throw failed(tenant, id, attempt);
        }
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = null,
                       delivered_at = now() where id = ? and tenant_id = ?""").params(attempt.status(), id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "delivered").increment();
        meters.timer("memoir.webhooks.lag").record(Duration.between(delivery.createdAt(), Instant.now()));
        if (delivery.seq() != null) {
            streams.wakeNext(tenant, delivery.endpoint(), delivery.userId(), delivery.seq());
        }
        return Optional.empty();
    }

    /** Records a failed attempt; answers the failure for the job to throw, which has it retried. */
    private DeliveryFailed failed(UUID tenant, UUID id, WebhookSender.Attempt attempt) {
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = ?
                where id = ? and tenant_id = ?""").params(attempt.status(), attempt.error(), id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "failed").increment();
        return new DeliveryFailed("Webhook delivery " + id + " failed: the endpoint " + attempt.error());
    }

    /** Put off without counting as a failure while an earlier delivery of its endpoint and user is to be made. */
    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        Task<Void> webhookDelivery(Jobs jobs, WebhookDeliveryJob delivery) {
            return jobs.deferrableTask(JOB, delivery::deliver);
        }
    }
}
