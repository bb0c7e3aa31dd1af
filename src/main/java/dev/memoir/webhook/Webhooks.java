package dev.memoir.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.archive.ImportFinished;
import dev.memoir.jobs.JobStatus;
import dev.memoir.jobs.Jobs;
import dev.memoir.jobs.SessionJobsDone;
import dev.memoir.memory.MemoryEvent;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.UserMemoryErased;
import dev.memoir.session.SessionClosed;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;
import dev.memoir.session.TurnsRecorded;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.NotFoundException;
import dev.memoir.web.SqlTimes;
import dev.memoir.web.TextSafety;

import tools.jackson.databind.json.JsonMapper;

/**
 * A tenant's webhook endpoints and their deliveries. A memory event queues one delivery per endpoint that asked for
 * it, in the transaction of the change (a row and a durable job: the outbox), so a delivery exists exactly when the
 * change committed and never slows the request. The {@code webhook-delivery} job POSTs it, signed; a failure (no
 * answer in time, or an answer other than 2xx) is retried with back-off and jitter, and after the last attempt the
 * job waits in the dead-letter list, where the operator sees it and can run it again. The delivery's id is the
 * same on every attempt ({@code webhook-id}), so the receiver can drop a repeat.
 *
 * <p>Deliveries of one endpoint and user go in order: each takes the next number of its (endpoint, user) stream
 * when it is queued, and is not sent while an earlier one of the stream waits for its first attempt or a retry. A
 * dead-lettered one no longer holds the stream back. The order lives in the database (the stream's row lock, the
 * jobs' rows), so it holds with any number of instances running the jobs.
 */
@Service
class Webhooks {

    static final TaskDescriptor<Void> JOB = TaskDescriptor.of("webhook-delivery");

    /** Waits for a closed session's memory jobs, then queues {@code session.memories-written}. */
    static final TaskDescriptor<Void> MEMORIES_WRITTEN = TaskDescriptor.of("webhook-memories-written");

    /**
     * How long the wait for a session's memory jobs sleeps between looks: the last of the jobs wakes it at once
     * ({@link #onSessionJobsDone}), so this only bounds how late it is when that wake-up came while it was looking.
     */
    private static final Duration MEMORIES_WRITTEN_RECHECK = Duration.ofMinutes(1);

    private final JdbcClient jdbc;
    private final Jobs jobs;
    private final WebhookTargets targets;
    private final JsonMapper json;
    private final HttpClient http;
    private final Duration timeout;
    private final MeterRegistry meters;
    private final SessionService sessions;
    private final TransactionTemplate transaction;

    Webhooks(JdbcClient jdbc, Jobs jobs, WebhookTargets targets, JsonMapper json, WebhookProperties properties,
            MeterRegistry meters, SessionService sessions, TransactionTemplate transaction) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.targets = targets;
        this.json = json;
        this.meters = meters;
        this.sessions = sessions;
        this.transaction = transaction;
        this.timeout = properties.timeout();
        Gauge.builder("memoir.webhooks.queued", jobs, j -> j.queued(JOB))
                .description("Webhook deliveries waiting for their first attempt, a retry, or an earlier delivery "
                        + "of their user; dead-lettered ones are counted in memoir.jobs.failed")
                .register(meters);
        // Redirects are not followed: a redirect could lead anywhere, past the checks of the target.
        this.http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(properties.timeout()).build();
    }

    @Transactional
    WebhookView register(TenantId tenant, WebhookCreate request) {
        String problem = TextSafety.problem(request.url());
        if (problem == null) {
            problem = targets.problem(request.url().strip());
        }
        if (problem != null) {
            throw new InvalidRequestException("url", problem);
        }
        if (request.events().contains(WebhookEvent.WEBHOOK_TEST)) {
            throw new InvalidRequestException("events", "webhook.test is sent on request (POST "
                    + "/webhooks/{id}/test), not subscribed to");
        }
        UUID id = UUID.randomUUID();
        String secret = WebhookSigner.newSecret();
        List<String> events = request.events().stream().map(WebhookEvent::wireName).sorted().toList();
        boolean includeText = Boolean.TRUE.equals(request.includeText());
        Instant created = jdbc.sql("""
                insert into webhook_endpoints (id, tenant_id, url, secret, events, include_text)
                values (?, ?, ?, ?, ?, ?) returning created_at""")
                .params(id, tenant.value(), request.url().strip(), secret, events.toArray(String[]::new), includeText)
                .query((rs, n) -> SqlTimes.instant(rs, "created_at")).single();
        return new WebhookView(id, request.url().strip(), events, includeText, created, secret);
    }

    @Transactional(readOnly = true)
    List<WebhookView> list(TenantId tenant) {
        return jdbc.sql("""
                select id, url, events, include_text, created_at from webhook_endpoints where tenant_id = ?
                order by created_at, id""").param(tenant.value())
                .query((rs, n) -> new WebhookView(rs.getObject("id", UUID.class), rs.getString("url"),
                        List.of((String[]) rs.getArray("events").getArray()), rs.getBoolean("include_text"),
                        SqlTimes.instant(rs, "created_at"), null)).list();
    }

    /** Deletes the endpoint with its deliveries: those still queued are dropped when their job runs. */
    @Transactional
    void delete(TenantId tenant, UUID id) {
        if (jdbc.sql("delete from webhook_endpoints where id = ? and tenant_id = ?").params(id, tenant.value())
                .update() == 0) {
            throw new NotFoundException("Webhook", id);
        }
    }

    /** Queues a {@code webhook.test} delivery to the endpoint; answers its id. */
    @Transactional
    UUID test(TenantId tenant, UUID id) {
        requireEndpoint(tenant, id);
        return queue(tenant, id, WebhookEvent.WEBHOOK_TEST, null, Map.of("message", "A test delivery from Memoir"));
    }

    /** The endpoint's most recent deliveries, newest first. */
    @Transactional(readOnly = true)
    List<DeliveryView> deliveries(TenantId tenant, UUID id, int limit) {
        requireEndpoint(tenant, id);
        return jdbc.sql("""
                select id, event, user_id, created_at, attempts, last_status, last_error, delivered_at
                from webhook_deliveries where tenant_id = ? and endpoint_id = ?
                order by created_at desc, seq desc nulls last, id limit ?""").params(tenant.value(), id, limit)
                .query((rs, n) -> {
                    UUID delivery = rs.getObject("id", UUID.class);
                    Instant delivered = SqlTimes.instant(rs, "delivered_at");
                    Instant next = delivered == null
                            ? jobs.nextRun(JOB, tenant.value() + ":" + delivery).orElse(null) : null;
                    DeliveryView.State state = delivered != null ? DeliveryView.State.delivered
                            : next != null ? DeliveryView.State.pending : DeliveryView.State.failed;
                    return new DeliveryView(delivery, rs.getString("event"), rs.getString("user_id"),
                            SqlTimes.instant(rs, "created_at"), state, rs.getInt("attempts"),
                            (Integer) rs.getObject("last_status"), rs.getString("last_error"), delivered, next);
                }).list();
    }

    private void requireEndpoint(TenantId tenant, UUID id) {
        if (jdbc.sql("select count(*) from webhook_endpoints where id = ? and tenant_id = ?")
                .params(id, tenant.value()).query(Integer.class).single() == 0) {
            throw new NotFoundException("Webhook", id);
        }
    }

    /**
     * Queues a delivery of the change to every endpoint of the tenant that asked for it, in the transaction of the
     * change. A history memory is the turn itself, not news: no event is sent for it.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onMemoryEvent(MemoryEvent event) {
        if (event.kind() == MemoryKind.HISTORY) {
            return;
        }
        WebhookEvent type = switch (event.type()) {
            case CREATED -> WebhookEvent.MEMORY_CREATED;
            case UPDATED -> WebhookEvent.MEMORY_UPDATED;
            case DELETED -> WebhookEvent.MEMORY_DELETED;
            case SUPERSEDED -> WebhookEvent.MEMORY_SUPERSEDED;
        };
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("userId", event.userId());
        data.put("memoryId", event.memoryId());
        data.put("kind", event.kind());
        if (event.reason() != null) {
            data.put("reason", event.reason());
        }
        if (event.supersededBy() != null) {
            data.put("supersededBy", event.supersededBy());
        }
        fanOut(event.tenant(), type, event.userId(), data, event.text());
    }

    /** {@code turns.recorded}: once per request that stores turns (a chat's message or reply, an import). */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onTurnsRecorded(TurnsRecorded recorded) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("userId", recorded.userId());
        data.put("sessionId", recorded.sessionId());
        data.put("turnIds", recorded.turns().stream().map(TurnView::id).toList());
        fanOut(recorded.tenant(), WebhookEvent.TURNS_RECORDED, recorded.userId(), data, null);
    }

    /**
     * {@code session.closed}: when a close is asked (by the client, the idle close or an import). Where an endpoint
     * asked for {@code session.memories-written}, a job waits for the session's memory jobs, queued by this same
     * close.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onSessionClosed(SessionClosed closed) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("userId", closed.userId());
        data.put("sessionId", closed.sessionId());
        fanOut(closed.tenant(), WebhookEvent.SESSION_CLOSED, closed.userId(), data, null);
        if (!subscribers(closed.tenant(), WebhookEvent.SESSION_MEMORIES_WRITTEN).isEmpty()) {
            // Queued as no tenant's job: a wait that may last as long as the session's jobs must not count in the
            // tenant's backlog, which would lower the priority of the tenant's next jobs meanwhile.
            jobs.queue(MEMORIES_WRITTEN, closed.tenant().value() + ":" + closed.sessionId());
        }
    }

    /** The last memory job of a session finished: a wait for the session's memories looks again at once. */
    @EventListener
    void onSessionJobsDone(SessionJobsDone done) {
        jobs.runNow(MEMORIES_WRITTEN, done.tenant().value() + ":" + done.sessionId());
    }

    /**
     * The {@code webhook-memories-written} job, by {@code <tenantId>:<sessionId>}: once none of the closed session's
     * memory jobs is left to run, queues {@code session.memories-written}; until then it waits (a dead-lettered job
     * keeps it waiting until an operator runs that job again). Nothing when the session was deleted or its user
     * erased meanwhile: the session is held against erasure while the event is queued.
     */
    Optional<Instant> memoriesWritten(String jobId) {
        int colon = jobId.indexOf(':');
        TenantId tenant = new TenantId(UUID.fromString(jobId.substring(0, colon)));
        UUID sessionId = UUID.fromString(jobId.substring(colon + 1));
        List<JobStatus> memoryJobs = jobs.ofSession(sessionId);
        if (memoryJobs.stream().anyMatch(job -> job.state() != JobStatus.State.done)) {
            return Optional.of(Instant.now().plus(MEMORIES_WRITTEN_RECHECK));
        }
        transaction.executeWithoutResult(status -> sessions.hold(tenant, sessionId).ifPresent(session -> {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("userId", session.userId());
            data.put("sessionId", sessionId);
            data.put("jobs", memoryJobs.stream().map(JobStatus::task).distinct().sorted().toList());
            fanOut(tenant, WebhookEvent.SESSION_MEMORIES_WRITTEN, session.userId(), data, null);
        }));
        return Optional.empty();
    }

    /**
     * {@code user.erased}, and nothing about the user after it: the erasure deletes every delivery that names the
     * user, sent or not (a queued one's job then finds no row and sends nothing), in the erasing transaction.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onUserErased(UserMemoryErased erased) {
        jdbc.sql("delete from webhook_deliveries where tenant_id = ? and user_id = ?")
                .params(erased.tenant().value(), erased.userId()).update();
        fanOut(erased.tenant(), WebhookEvent.USER_ERASED, erased.userId(), Map.of("userId", erased.userId()), null);
    }

    /**
     * {@code import.finished}: in the transaction of a user archive's import; after the last conversation of an
     * export's (each conversation had its own), in a transaction of its own.
     */
    @EventListener
    @Transactional
    void onImportFinished(ImportFinished finished) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("userId", finished.userId());
        data.put("what", finished.what());
        data.put("sessions", finished.sessions());
        fanOut(finished.tenant(), WebhookEvent.IMPORT_FINISHED, finished.userId(), data, null);
    }

    /**
     * The tenant's endpoints that asked for the event, in the order of their ids: transactions take the streams'
     * row locks in one order, so two of them queueing for the same users cannot deadlock.
     */
    private List<Map<String, Object>> subscribers(TenantId tenant, WebhookEvent type) {
        return jdbc.sql("""
                select id, include_text from webhook_endpoints where tenant_id = ? and ? = any(events)
                order by id""")
                .params(tenant.value(), type.wireName())
                .query((rs, n) -> Map.<String, Object>of("id", rs.getObject("id", UUID.class),
                        "includeText", rs.getBoolean("include_text"))).list();
    }

    /** Queues a delivery of the event to every endpoint of the tenant that asked for it. */
    private void fanOut(TenantId tenant, WebhookEvent type, String userId, Map<String, Object> data, String text) {
        for (Map<String, Object> endpoint : subscribers(tenant, type)) {
            Map<String, Object> sent = data;
            if (text != null && Boolean.TRUE.equals(endpoint.get("includeText"))) {
                sent = new LinkedHashMap<>(data);
                sent.put("text", text);
            }
            queue(tenant, (UUID) endpoint.get("id"), type, userId, sent);
        }
    }

    private UUID queue(TenantId tenant, UUID endpoint, WebhookEvent type, String userId, Map<String, Object> data) {
        UUID id = UUID.randomUUID();
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("type", type.wireName());
        payload.put("timestamp", Instant.now().toString());
        payload.put("data", data);
        // The stream's row stays locked until this transaction ends: a concurrent one queueing for the same endpoint
        // and user waits, so the numbers follow the order in which the changes commit.
        Long seq = userId == null ? null : jdbc.sql("""
                insert into webhook_streams (tenant_id, endpoint_id, user_id, last_seq) values (?, ?, ?, 1)
                on conflict (tenant_id, endpoint_id, user_id) do update set last_seq = webhook_streams.last_seq + 1
                returning last_seq""").params(tenant.value(), endpoint, userId).query(Long.class).single();
        jdbc.sql("""
                insert into webhook_deliveries (id, tenant_id, endpoint_id, event, user_id, payload, seq)
                values (?, ?, ?, ?, ?, ?, ?)""")
                .params(id, tenant.value(), endpoint, type.wireName(), userId, json.writeValueAsString(payload), seq)
                .update();
        jobs.queue(JOB, tenant, tenant.value() + ":" + id);
        return id;
    }

    /** A delivery's attempt failed; its job is retried. */
    static final class DeliveryFailed extends RuntimeException {
        DeliveryFailed(String message) {
            super(message, null, false, false);
        }
    }

    private record Pending(String url, String secret, String payload, Instant createdAt, UUID endpoint,
            String userId, Long seq, int attempts) {
    }

    /**
     * The {@code webhook-delivery} job: one attempt to deliver, by {@code <tenantId>:<deliveryId>}; or, while an
     * earlier delivery of the same endpoint and user is still to be made, when to look again.
     */
    Optional<Instant> deliver(String jobId) {
        int slash = jobId.indexOf(':');
        UUID tenant = UUID.fromString(jobId.substring(0, slash));
        UUID id = UUID.fromString(jobId.substring(slash + 1));
        Optional<Pending> pending = jdbc.sql("""
                select e.url, e.secret, d.payload, d.created_at, d.endpoint_id, d.user_id, d.seq, d.attempts
                from webhook_deliveries d
                join webhook_endpoints e on e.id = d.endpoint_id and e.tenant_id = d.tenant_id
                where d.id = ? and d.tenant_id = ? and d.delivered_at is null""").params(id, tenant)
                .query((rs, n) -> new Pending(rs.getString("url"), rs.getString("secret"), rs.getString("payload"),
                        SqlTimes.instant(rs, "created_at"), rs.getObject("endpoint_id", UUID.class),
                        rs.getString("user_id"), (Long) rs.getObject("seq", Long.class), rs.getInt("attempts")))
                .optional();
        if (pending.isEmpty()) {
            // Delivered already (a retry after a crash), or its endpoint was deleted.
            return Optional.empty();
        }
        Pending delivery = pending.get();
        // A delivery attempted once already went out in its turn; one operator runs again after the dead-letter list
        // is sent when it comes, whatever was sent meanwhile.
        if (delivery.seq() != null && delivery.attempts() == 0) {
            Optional<Instant> wait = heldBackUntil(tenant, delivery);
            if (wait.isPresent()) {
                meters.counter("memoir.webhooks.deliveries", "outcome", "held").increment();
                return wait;
            }
        }
        String refused = targets.problem(delivery.url());
        if (refused != null) {
            throw failed(tenant, id, null, "the endpoint's URL " + refused);
        }
        long timestamp = Instant.now().getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(URI.create(delivery.url()))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Memoir-Webhooks")
                .header("webhook-id", id.toString())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSigner.signature(delivery.secret(), id.toString(), timestamp,
                        delivery.payload()))
                .POST(HttpRequest.BodyPublishers.ofString(delivery.payload()))
                .build();
        int status;
        try {
            // The answer's body is not read: bounded at nothing.
            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (HttpTimeoutException e) {
            throw failed(tenant, id, null, "no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw failed(tenant, id, null, "could not be reached: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(tenant, id, null, "interrupted");
        }
        if (status < 200 || status > 299) {
            throw failed(tenant, id, status, "answered " + status);
        }
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = null,
                       delivered_at = now() where id = ? and tenant_id = ?""").params(status, id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "delivered").increment();
        meters.timer("memoir.webhooks.lag").record(Duration.between(delivery.createdAt(), Instant.now()));
        if (delivery.seq() != null) {
            wakeNext(tenant, delivery);
        }
        return Optional.empty();
    }

    /**
     * When the delivery may look again, if an earlier one of its stream is still to be made: one after the last
     * delivered, not delivered, whose job waits for its first attempt or a retry, or runs. One whose job is gone
     * was dead-lettered and holds nothing back; so is one before the last delivered (the stream went past it).
     * The earlier one's job row exists until its outcome is recorded, so of two instances looking at once, each
     * sees the other's earlier delivery either delivered or still queued.
     */
    private Optional<Instant> heldBackUntil(UUID tenant, Pending delivery) {
        List<UUID> earlier = jdbc.sql("""
                select id from webhook_deliveries
                where tenant_id = :tenant and endpoint_id = :endpoint and user_id = :user and seq < :seq
                  and delivered_at is null
                  and seq > coalesce((select max(seq) from webhook_deliveries
                                      where tenant_id = :tenant and endpoint_id = :endpoint and user_id = :user
                                        and seq < :seq and delivered_at is not null), 0)
                order by seq""")
                .param("tenant", tenant).param("endpoint", delivery.endpoint()).param("user", delivery.userId())
                .param("seq", delivery.seq())
                .query((rs, n) -> rs.getObject("id", UUID.class)).list();
        for (UUID before : earlier) {
            Optional<Instant> next = jobs.nextRun(JOB, tenant + ":" + before);
            if (next.isPresent()) {
                // After the earlier one's attempt has had its time; its success wakes this one sooner (wakeNext).
                Instant now = Instant.now();
                return Optional.of((next.get().isAfter(now) ? next.get() : now).plus(timeout));
            }
        }
        return Optional.empty();
    }

    /** Wakes the next delivery of the stream, which may be waiting for this one. */
    private void wakeNext(UUID tenant, Pending delivery) {
        jdbc.sql("""
                select id from webhook_deliveries
                where tenant_id = ? and endpoint_id = ? and user_id = ? and seq > ? and delivered_at is null
                order by seq limit 1""").params(tenant, delivery.endpoint(), delivery.userId(), delivery.seq())
                .query((rs, n) -> rs.getObject("id", UUID.class)).optional()
                .ifPresent(next -> jobs.runNow(JOB, tenant + ":" + next));
    }

    /** Records a failed attempt; answers the failure for the job to throw, which has it retried. */
    private DeliveryFailed failed(UUID tenant, UUID id, Integer status, String why) {
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = ?
                where id = ? and tenant_id = ?""").params(status, why, id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "failed").increment();
        return new DeliveryFailed("Webhook delivery " + id + " failed: the endpoint " + why);
    }
}
