package dev.memoir.webhook;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.common.web.ConflictException;
import dev.memoir.common.web.Cursor;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.jobs.Jobs;
import dev.memoir.jobs.TenantJobId;
import dev.memoir.tenant.TenantId;

/**
 * A tenant's webhook endpoints and their deliveries, as the operator sees them: registering, listing and deleting
 * endpoints, a test delivery, and an endpoint's recent deliveries with their outcome. Memory events are queued by
 * {@link WebhookTriggers} into the {@link WebhookOutbox}, delivered by the {@link WebhookDeliveryJob} in the order of
 * their {@link WebhookStreams}.
 */
@Service
class Webhooks {

    private final JdbcClient jdbc;
    private final Jobs jobs;
    private final WebhookTargets targets;
    private final WebhookOutbox outbox;
    private final AdvisoryLocks locks;
    private final int maxEndpoints;

    Webhooks(
            JdbcClient jdbc,
            Jobs jobs,
            WebhookTargets targets,
            WebhookOutbox outbox,
            AdvisoryLocks locks,
            WebhookProperties properties) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.targets = targets;
        this.outbox = outbox;
        this.locks = locks;
        this.maxEndpoints = properties.maxEndpoints();
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
            throw new InvalidRequestException(
                    "events", "webhook.test is sent on request (POST " + "/webhooks/{id}/test), not subscribed to");
        }
        locks.lock(AdvisoryLocks.Space.WEBHOOK_ENDPOINTS, tenant.value().toString());
        int registered = jdbc.sql("select count(*) from webhook_endpoints where tenant_id = ?")
                .param(tenant.value())
                .query(Integer.class)
                .single();
        if (registered >= maxEndpoints) {
            throw new ConflictException(
                    "too-many-webhooks",
                    "The tenant has " + registered + " webhook endpoints, as many as it may "
                            + "(memoir.webhooks.max-endpoints): delete one first");
        }
        UUID id = UUID.randomUUID();
        String secret = WebhookSigner.newSecret();
        List<String> events =
                request.events().stream().map(WebhookEvent::wireName).sorted().toList();
        boolean includeText = Boolean.TRUE.equals(request.includeText());
        Instant created = jdbc.sql("""
                insert into webhook_endpoints (id, tenant_id, url, secret, events, include_text)
                values (?, ?, ?, ?, ?, ?) returning created_at""")
                .params(id, tenant.value(), request.url().strip(), secret, events.toArray(String[]::new), includeText)
                .query((rs, n) -> SqlTimes.instant(rs, "created_at"))
                .single();
        return new WebhookView(id, request.url().strip(), events, includeText, created, secret);
    }

    @Transactional(readOnly = true)
    List<WebhookView> list(TenantId tenant) {
        return jdbc.sql("""
                select id, url, events, include_text, created_at from webhook_endpoints where tenant_id = ?
                order by created_at, id""")
                .param(tenant.value())
                .query((rs, n) -> new WebhookView(
                        rs.getObject("id", UUID.class),
                        rs.getString("url"),
                        List.of((String[]) rs.getArray("events").getArray()),
                        rs.getBoolean("include_text"),
                        SqlTimes.instant(rs, "created_at"),
                        null))
                .list();
    }

    /** Deletes the endpoint with its deliveries: those still queued are dropped when their job runs. */
    @Transactional
    void delete(TenantId tenant, UUID id) {
        if (jdbc.sql("delete from webhook_endpoints where id = ? and tenant_id = ?")
                        .params(id, tenant.value())
                        .update()
                == 0) {
            throw new NotFoundException("Webhook", id);
        }
    }

    /** Queues a {@code webhook.test} delivery to the endpoint; answers its id. */
    @Transactional
    UUID test(TenantId tenant, UUID id) {
        requireEndpoint(tenant, id);
        return outbox.queue(
                tenant, id, WebhookEvent.WEBHOOK_TEST, null, new WebhookData.Test("A test delivery from Memoir"));
    }

    /** A delivery as listed, with where it stands in the list's order (for the next page's cursor). */
    record ListedDelivery(DeliveryView view, long seq) {}

    /**
     * The endpoint's deliveries, newest first (a transaction's deliveries by their order in it), from after the
     * delivery a cursor names: {@code limit} of them.
     */
    @Transactional(readOnly = true)
    List<ListedDelivery> deliveries(TenantId tenant, UUID id, Cursor after, int limit) {
        requireEndpoint(tenant, id);
        // Deliveries from before V46 have no seq: they sort last among those of their instant, as -1.
        String from = after == null
                ? ""
                : " and (created_at < :at or (created_at = :at and coalesce(seq, -1) < :seq)"
                        + " or (created_at = :at and coalesce(seq, -1) = :seq and id > :id))";
        JdbcClient.StatementSpec statement = jdbc.sql("""
                        select id, event, user_id, created_at, attempts, last_status, last_error, delivered_at,
                               coalesce(seq, -1) as list_seq
                        from webhook_deliveries where tenant_id = :tenant and endpoint_id = :endpoint""" + from + """

                        order by created_at desc, coalesce(seq, -1) desc, id limit :limit""")
                .param("tenant", tenant.value())
                .param("endpoint", id)
                .param("limit", limit);
        if (after != null) {
            statement = statement
                    .param("at", SqlTimes.timestamptz(after.instant(0)))
                    .param("seq", after.longValue(1))
                    .param("id", after.uuid(2));
        }
        return statement
                .query((rs, n) -> {
                    UUID delivery = rs.getObject("id", UUID.class);
                    Instant delivered = SqlTimes.instant(rs, "delivered_at");
                    Instant next = delivered == null
                            ? jobs.nextRun(WebhookDeliveryJob.JOB, new TenantJobId(tenant, delivery))
                                    .orElse(null)
                            : null;
                    DeliveryView.State state = delivered != null
                            ? DeliveryView.State.delivered
                            : next != null ? DeliveryView.State.pending : DeliveryView.State.failed;
                    return new ListedDelivery(
                            new DeliveryView(
                                    delivery,
                                    rs.getString("event"),
                                    rs.getString("user_id"),
                                    SqlTimes.instant(rs, "created_at"),
                                    state,
                                    rs.getInt("attempts"),
                                    (Integer) rs.getObject("last_status"),
                                    rs.getString("last_error"),
                                    delivered,
                                    next),
                            rs.getLong("list_seq"));
                })
                .list();
    }

    private void requireEndpoint(TenantId tenant, UUID id) {
        if (jdbc.sql("select count(*) from webhook_endpoints where id = ? and tenant_id = ?")
                        .params(id, tenant.value())
                        .query(Integer.class)
                        .single()
                == 0) {
            throw new NotFoundException("Webhook", id);
        }
    }
}
