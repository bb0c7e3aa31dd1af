package dev.memoir.webhook;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.jobs.Jobs;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Queues deliveries in the caller's transaction (the outbox): a row and a durable {@code webhook-delivery} job per
 * endpoint that asked for the event, so a delivery exists exactly when the change committed and never slows the
 * request.
 */
@Component
class WebhookOutbox {

    private record Subscriber(UUID id, boolean includeText) {}

    private final JdbcClient jdbc;
    private final Jobs jobs;
    private final JsonMapper json;
    private final WebhookStreams streams;

    WebhookOutbox(JdbcClient jdbc, Jobs jobs, JsonMapper json, WebhookStreams streams) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.json = json;
        this.streams = streams;
    }

    boolean anySubscriber(TenantId tenant, WebhookEvent type) {
        return !subscribers(tenant, type).isEmpty();
    }

    /**
     * Queues a delivery of the event to every endpoint of the tenant that asked for it; the text goes only to those
     * that asked for it too.
     */
    void fanOut(TenantId tenant, WebhookEvent type, String userId, Map<String, Object> data, String text) {
        fanOut(tenant, type, userId, null, data, text);
    }

    /**
     * As {@link #fanOut(TenantId, WebhookEvent, String, Map, String)}, for an event about a memory: its deliveries
     * name the memory, so that its text leaves them when the memory is gone ({@link #forgetText}).
     */
    void fanOut(
            TenantId tenant, WebhookEvent type, String userId, UUID memoryId, Map<String, Object> data, String text) {
        for (Subscriber endpoint : subscribers(tenant, type)) {
            Map<String, Object> sent = data;
            if (text != null && endpoint.includeText()) {
                sent = new LinkedHashMap<>(data);
                sent.put("text", text);
            }
            queue(tenant, endpoint.id(), type, userId, memoryId, sent);
        }
    }

    /** Queues one delivery to the endpoint; answers its id. One naming a user takes its place in the user's stream. */
    UUID queue(TenantId tenant, UUID endpoint, WebhookEvent type, String userId, Map<String, Object> data) {
        return queue(tenant, endpoint, type, userId, null, data);
    }

    private UUID queue(
            TenantId tenant, UUID endpoint, WebhookEvent type, String userId, UUID memoryId, Map<String, Object> data) {
        UUID id = UUID.randomUUID();
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("type", type.wireName());
        payload.put("timestamp", Instant.now().toString());
        payload.put("data", data);
        Long seq = userId == null ? null : streams.nextSeq(tenant, endpoint, userId);
        jdbc.sql("""
                insert into webhook_deliveries (id, tenant_id, endpoint_id, event, user_id, payload, seq, memory_id)
                values (?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        id,
                        tenant.value(),
                        endpoint,
                        type.wireName(),
                        userId,
                        json.writeValueAsString(payload),
                        seq,
                        memoryId)
                .update();
        jobs.queue(WebhookDeliveryJob.JOB, tenant, tenant.value() + ":" + id);
        return id;
    }

    /**
     * Deletes every delivery that names the user, sent or not: a queued one's job then finds no row and sends
     * nothing.
     */
    void forgetUser(TenantId tenant, String userId) {
        jdbc.sql("delete from webhook_deliveries where tenant_id = ? and user_id = ?")
                .params(tenant.value(), userId)
                .update();
    }

    /**
     * Takes the memory's text out of every delivery that carries it, sent or not: the memory is gone (deleted, expired
     * or purged), and its words must not outlive it here. A delivery still to be sent goes without it.
     */
    void forgetText(TenantId tenant, UUID memoryId) {
        record Carrying(UUID id, String payload) {}
        List<Carrying> carrying = jdbc.sql("""
                select id, payload from webhook_deliveries where tenant_id = ? and memory_id = ?
                for update""")
                .params(tenant.value(), memoryId)
                .query((rs, n) -> new Carrying(rs.getObject("id", UUID.class), rs.getString("payload")))
                .list();
        for (Carrying delivery : carrying) {
            ObjectNode payload = (ObjectNode) json.readTree(delivery.payload());
            if (payload.path("data") instanceof ObjectNode data && data.remove("text") != null) {
                jdbc.sql("update webhook_deliveries set payload = ? where id = ? and tenant_id = ?")
                        .params(json.writeValueAsString(payload), delivery.id(), tenant.value())
                        .update();
            }
        }
    }

    /**
     * The tenant's endpoints that asked for the event, in the order of their ids: transactions take the streams'
     * row locks in one order, so two of them queueing for the same users cannot deadlock.
     */
    private List<Subscriber> subscribers(TenantId tenant, WebhookEvent type) {
        return jdbc.sql("""
                select id, include_text from webhook_endpoints where tenant_id = ? and ? = any(events)
                order by id""")
                .params(tenant.value(), type.wireName())
                .query((rs, n) -> new Subscriber(rs.getObject("id", UUID.class), rs.getBoolean("include_text")))
                .list();
    }
}
