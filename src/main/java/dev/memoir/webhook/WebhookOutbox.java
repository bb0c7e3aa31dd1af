package dev.memoir.webhook;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.jobs.Jobs;
import dev.memoir.jobs.TenantJobId;
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
     * Queues a delivery of the event to every endpoint of the tenant that asked for it.
     */
    void fanOut(TenantId tenant, WebhookEvent type, String userId, WebhookData data) {
        fanOut(tenant, type, userId, null, data, null);
    }

    /**
     * As {@link #fanOut(TenantId, WebhookEvent, String, WebhookData)}, for an event about a memory: its deliveries
     * name the memory, so that its text leaves them when the memory is gone ({@link #forgetText}); the text goes only
     * to the endpoints that asked for it.
     */
    void fanOut(TenantId tenant, WebhookEvent type, String userId, UUID memoryId, WebhookData data, String text) {
        for (Subscriber endpoint : subscribers(tenant, type)) {
            WebhookData sent = text != null && endpoint.includeText() ? data.withText(text) : data;
            queue(tenant, endpoint.id(), type, userId, memoryId, sent);
        }
    }

    /** Queues one delivery to the endpoint; answers its id. One naming a user takes its place in the user's stream. */
    UUID queue(TenantId tenant, UUID endpoint, WebhookEvent type, String userId, WebhookData data) {
        return queue(tenant, endpoint, type, userId, null, data);
    }

    /** What a delivery's body holds: the event, when it happened, and its data (docs/api.md, "Webhooks"). */
    private record Payload(String type, String timestamp, WebhookData data) {}

    private UUID queue(
            TenantId tenant, UUID endpoint, WebhookEvent type, String userId, UUID memoryId, WebhookData data) {
        UUID id = UUID.randomUUID();
        Payload payload = new Payload(type.wireName(), Instant.now().toString(), data);
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
        jobs.queue(WebhookDeliveryJob.JOB, new TenantJobId(tenant, id));
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
