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

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.archive.ImportFinished;
import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryEvent;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.UserMemoryErased;
import dev.memoir.session.SessionClosed;
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
 */
@Service
class Webhooks {

    static final TaskDescriptor<Void> JOB = TaskDescriptor.of("webhook-delivery");

    private final JdbcClient jdbc;
    private final Jobs jobs;
    private final WebhookTargets targets;
    private final JsonMapper json;
    private final HttpClient http;
    private final Duration timeout;
    private final MeterRegistry meters;

    Webhooks(JdbcClient jdbc, Jobs jobs, WebhookTargets targets, JsonMapper json, WebhookProperties properties,
            MeterRegistry meters) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.targets = targets;
        this.json = json;
        this.meters = meters;
        this.timeout = properties.timeout();
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
                order by created_at desc, id limit ?""").params(tenant.value(), id, limit)
                .query((rs, n) -> new DeliveryView(rs.getObject("id", UUID.class), rs.getString("event"),
                        rs.getString("user_id"), SqlTimes.instant(rs, "created_at"), rs.getInt("attempts"),
                        (Integer) rs.getObject("last_status"), rs.getString("last_error"),
                        SqlTimes.instant(rs, "delivered_at"))).list();
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

    /** {@code session.closed}: when a close is asked (by the client, the idle close or an import). */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onSessionClosed(SessionClosed closed) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("userId", closed.userId());
        data.put("sessionId", closed.sessionId());
        fanOut(closed.tenant(), WebhookEvent.SESSION_CLOSED, closed.userId(), data, null);
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

    /** Queues a delivery of the event to every endpoint of the tenant that asked for it. */
    private void fanOut(TenantId tenant, WebhookEvent type, String userId, Map<String, Object> data, String text) {
        List<Map<String, Object>> endpoints = jdbc.sql("""
                select id, include_text from webhook_endpoints where tenant_id = ? and ? = any(events)""")
                .params(tenant.value(), type.wireName())
                .query((rs, n) -> Map.<String, Object>of("id", rs.getObject("id", UUID.class),
                        "includeText", rs.getBoolean("include_text"))).list();
        for (Map<String, Object> endpoint : endpoints) {
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
        jdbc.sql("""
                insert into webhook_deliveries (id, tenant_id, endpoint_id, event, user_id, payload)
                values (?, ?, ?, ?, ?, ?)""")
                .params(id, tenant.value(), endpoint, type.wireName(), userId, json.writeValueAsString(payload))
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

    private record Pending(String url, String secret, String payload, Instant createdAt) {
    }

    /** The {@code webhook-delivery} job: one attempt to deliver, by {@code <tenantId>:<deliveryId>}. */
    void deliver(String jobId) {
        int slash = jobId.indexOf(':');
        UUID tenant = UUID.fromString(jobId.substring(0, slash));
        UUID id = UUID.fromString(jobId.substring(slash + 1));
        Optional<Pending> pending = jdbc.sql("""
                select e.url, e.secret, d.payload, d.created_at from webhook_deliveries d
                join webhook_endpoints e on e.id = d.endpoint_id and e.tenant_id = d.tenant_id
                where d.id = ? and d.tenant_id = ? and d.delivered_at is null""").params(id, tenant)
                .query((rs, n) -> new Pending(rs.getString("url"), rs.getString("secret"), rs.getString("payload"),
                        SqlTimes.instant(rs, "created_at"))).optional();
        if (pending.isEmpty()) {
            // Delivered already (a retry after a crash), or its endpoint was deleted.
            return;
        }
        Pending delivery = pending.get();
        String refused = targets.problem(delivery.url());
        if (refused != null) {
            failed(tenant, id, null, "the endpoint's URL " + refused);
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
            failed(tenant, id, null, "no answer within " + timeout.toMillis() + " ms");
            return;
        } catch (IOException e) {
            failed(tenant, id, null, "could not be reached: " + e.getClass().getSimpleName());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed(tenant, id, null, "interrupted");
            return;
        }
        if (status < 200 || status > 299) {
            failed(tenant, id, status, "answered " + status);
        }
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = null,
                       delivered_at = now() where id = ? and tenant_id = ?""").params(status, id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "delivered").increment();
        meters.timer("memoir.webhooks.lag").record(Duration.between(delivery.createdAt(), Instant.now()));
    }

    private void failed(UUID tenant, UUID id, Integer status, String why) {
        jdbc.sql("""
                update webhook_deliveries set attempts = attempts + 1, last_status = ?, last_error = ?
                where id = ? and tenant_id = ?""").params(status, why, id, tenant).update();
        meters.counter("memoir.webhooks.deliveries", "outcome", "failed").increment();
        throw new DeliveryFailed("Webhook delivery " + id + " failed: the endpoint " + why);
    }
}
