package dev.memoir.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.jobs.JobStep;
import dev.memoir.jobs.Jobs;
import dev.memoir.jobs.TenantJobId;

/**
 * The {@code webhook-delivery} job: one attempt to deliver a queued delivery, signed, made in the background by
 * {@link WebhookSender} so that no job thread waits for a receiver (a stalled receiver delays its own endpoint only).
 * A run claims the attempt in the delivery's row ({@code attempt_until}, the attempt's deadline), starts it and looks
 * again at the deadline; the attempt's end records its outcome in the row and brings the job forward, whose next run
 * finishes or, for a failure (no answer in time, or an answer other than 2xx), has the job retried with back-off and
 * jitter. After the last attempt the job waits in the dead-letter list, where the operator sees it and can run it
 * again. The delivery's id is the same on every attempt ({@code webhook-id}), so the receiver can drop a repeat. An
 * attempt whose instance stopped before recording it counts as failed once its deadline has passed.
 */
@Component
class WebhookDeliveryJob {

    private static final Logger log = LoggerFactory.getLogger(WebhookDeliveryJob.class);

    static final TaskDescriptor<Integer> JOB = TaskDescriptor.of("webhook-delivery", Integer.class);

    /** Beyond the attempt's own timeout, how long its outcome may take to be recorded before it counts as lost. */
    private static final Duration RECORDING_GRACE = Duration.ofSeconds(5);

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
            int attempts,
            Instant attemptUntil,
            boolean attemptFailed,
            String lastError) {}

    private final JdbcClient jdbc;
    private final Jobs jobs;
    private final WebhookStreams streams;
    private final WebhookSender sender;
    private final MeterRegistry meters;
    private final Duration timeout;
    private final int attemptsPerEndpoint;

    WebhookDeliveryJob(
            JdbcClient jdbc,
            Jobs jobs,
            WebhookStreams streams,
            WebhookSender sender,
            MeterRegistry meters,
            WebhookProperties properties) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.streams = streams;
        this.sender = sender;
        this.meters = meters;
        this.timeout = properties.timeout();
        this.attemptsPerEndpoint = properties.attemptsPerEndpoint();
        Gauge.builder("memoir.webhooks.queued", jobs, j -> j.queued(JOB))
                .description("Webhook deliveries waiting for their first attempt, a retry, or an earlier delivery "
                        + "of their user; dead-lettered ones are counted in memoir.jobs.failed")
                .register(meters);
        Gauge.builder("memoir.webhooks.in-flight", sender, WebhookSender::inFlight)
                .description("Webhook delivery attempts waiting for their receiver on this instance")
                .register(meters);
    }

    /** The job, by {@code <tenantId>:<deliveryId>}: one step of the delivery (see the class comment). */
    JobStep deliver(TenantJobId job) {
        UUID tenant = job.tenant().value();
        UUID id = job.id();
        Optional<Pending> pending = pending(tenant, id);
        if (pending.isEmpty()) {
            // Delivered (by the attempt that brought this run forward, or before a crash), or its endpoint, user or
            // memory's deliveries were deleted.
            return JobStep.done();
        }
        Pending delivery = pending.get();
        Instant now = Instant.now();
        if (delivery.attemptUntil() != null) {
            if (delivery.attemptUntil().isAfter(now)) {
                return JobStep.lookAgainAt(delivery.attemptUntil());
            }
            return lost(tenant, id);
        }
        if (delivery.attemptFailed()) {
            jdbc.sql("update webhook_deliveries set attempt_failed = false where id = ? and tenant_id = ?")
                    .params(id, tenant)
                    .update();
            return JobStep.failed(
                    new DeliveryFailed("Webhook delivery " + id + " failed: the endpoint " + delivery.lastError()));
        }
        // A delivery attempted once already went out in its turn; one operator runs again after the dead-letter list
        // is sent when it comes, whatever was sent meanwhile.
        if (delivery.seq() != null && delivery.attempts() == 0) {
            Optional<Instant> wait =
                    streams.heldBackUntil(tenant, delivery.endpoint(), delivery.userId(), delivery.seq());
            if (wait.isPresent()) {
                meters.counter("memoir.webhooks.deliveries", "outcome", "held").increment();
                return JobStep.lookAgainAt(wait.get());
            }
        }
        Optional<Instant> busy = endpointBusyUntil(tenant, delivery.endpoint());
        if (busy.isPresent()) {
            return JobStep.lookAgainAt(busy.get());
        }
        Instant deadline = now.plus(timeout).plus(RECORDING_GRACE);
        if (jdbc.sql("""
                        update webhook_deliveries set attempt_until = ?
                        where id = ? and tenant_id = ? and attempt_until is null and delivered_at is null""").params(SqlTimes.timestamptz(deadline), id, tenant).update() == 0) {
            // Another instance's run claimed it meanwhile.
            return JobStep.lookAgainAt(deadline);
        }
        sender.send(delivery.url(), delivery.secret(), id, delivery.payload())
                .thenAccept(attempt -> recorded(job, delivery, attempt));
        return JobStep.lookAgainAt(deadline);
    }

    /**
     * Records an attempt's outcome and brings the job forward to act on it. Runs on the sender's threads; a failure
     * to record leaves the claim to expire, which counts as a failed attempt.
     */
    private void recorded(TenantJobId job, Pending delivery, WebhookSender.Attempt attempt) {
        UUID tenant = job.tenant().value();
        UUID id = job.id();
        try {
            if (attempt.delivered()) {
                jdbc.sql("""
                        update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = null,
                               delivered_at = now(), attempt_until = null, attempt_failed = false
                        where id = ? and tenant_id = ?""").params(attempt.status(), id, tenant).update();
                meters.counter("memoir.webhooks.deliveries", "outcome", "delivered")
                        .increment();
                meters.timer("memoir.webhooks.lag").record(Duration.between(delivery.createdAt(), Instant.now()));
                if (delivery.seq() != null) {
                    streams.wakeNext(tenant, delivery.endpoint(), delivery.userId(), delivery.seq());
                }
            } else {
                jdbc.sql("""
                        update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = ?,
                               attempt_until = null, attempt_failed = true
                        where id = ? and tenant_id = ?""")
                        .params(attempt.status(), attempt.error(), id, tenant)
                        .update();
                meters.counter("memoir.webhooks.deliveries", "outcome", "failed")
                        .increment();
            }
            sender.soonAndAgain(() -> jobs.runNow(JOB, job));
        } catch (RuntimeException e) {
            log.warn("Webhook delivery {}: its attempt's outcome could not be recorded: {}", id, e.toString());
        }
    }

    /** An attempt whose outcome was never recorded (its instance stopped): it counts as failed. */
    private JobStep lost(UUID tenant, UUID id) {
        String error = "gave no outcome before its deadline (its instance stopped)";
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = null, last_error = ?,
                       attempt_until = null, attempt_failed = false
                where id = ? and tenant_id = ?""").params(error, id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "failed").increment();
        return JobStep.failed(new DeliveryFailed("Webhook delivery " + id + " failed: the attempt " + error));
    }

    /**
     * When the endpoint has as many attempts in flight as it may (memoir.webhooks.attempts-per-endpoint), the
     * earliest of their deadlines: a receiver that stalls holds that many connections and no more.
     */
    private Optional<Instant> endpointBusyUntil(UUID tenant, UUID endpoint) {
        record InFlight(int attempts, Instant earliestDeadline) {}
        InFlight inFlight = jdbc.sql("""
                select count(*) as attempts, min(attempt_until) as earliest from webhook_deliveries
                where tenant_id = ? and endpoint_id = ? and attempt_until > now()""")
                .params(tenant, endpoint)
                .query((rs, n) -> new InFlight(rs.getInt("attempts"), SqlTimes.instant(rs, "earliest")))
                .single();
        return inFlight.attempts() < attemptsPerEndpoint ? Optional.empty() : Optional.of(inFlight.earliestDeadline());
    }

    private Optional<Pending> pending(UUID tenant, UUID id) {
        return jdbc.sql("""
                select e.url, e.secret, d.payload, d.created_at, d.endpoint_id, d.user_id, d.seq, d.attempts,
                       d.attempt_until, d.attempt_failed, d.last_error
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
                        rs.getInt("attempts"),
                        SqlTimes.instant(rs, "attempt_until"),
                        rs.getBoolean("attempt_failed"),
                        rs.getString("last_error")))
                .optional();
    }

    /** Neither starting an attempt, waiting for it, nor being held back counts as a failure; a failed attempt does. */
    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        Task<Integer> webhookDelivery(Jobs jobs, WebhookDeliveryJob delivery) {
            return jobs.backgroundTask(JOB, delivery::deliver);
        }
    }
}
