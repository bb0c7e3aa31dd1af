package dev.memoir.retention;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.memory.RetentionRule;
import dev.memoir.memory.api.MemoryKind;

/** The operator's retention rules per tenant (V33). */
@Repository
class TenantRetentions {

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    TenantRetentions(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    List<RetentionRule> all() {
        return jdbc.sql("select tenant_id, kind, extract(epoch from keep_for)::bigint as seconds from tenant_retention")
                .query((rs, n) -> rule(
                        rs.getObject("tenant_id", UUID.class),
                        rs.getString("kind"),
                        rs.getObject("seconds", Long.class)))
                .list();
    }

    List<RetentionRule> of(UUID tenantId) {
        return jdbc.sql("""
                select tenant_id, kind, extract(epoch from keep_for)::bigint as seconds from tenant_retention
                where tenant_id = :tenantId order by kind""")
                .param("tenantId", tenantId)
                .query((rs, n) -> rule(
                        rs.getObject("tenant_id", UUID.class),
                        rs.getString("kind"),
                        rs.getObject("seconds", Long.class)))
                .list();
    }

    @Transactional
    void put(UUID tenantId, MemoryKind kind, Duration keepFor) {
        jdbc.sql("""
                insert into tenant_retention (tenant_id, kind, keep_for)
                values (:tenantId, :kind, make_interval(secs => cast(:seconds as bigint)))
                on conflict (tenant_id, kind) do update set keep_for = excluded.keep_for""")
                .param("tenantId", tenantId)
                .param("kind", kind.wireName())
                .param("seconds", keepFor == null ? null : keepFor.toSeconds())
                .update();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("kind", kind.wireName());
        details.put("keepFor", keepFor == null ? "forever" : keepFor.toString());
        events.publishEvent(Audited.of(tenantId, "retention.set", null, List.of(), details));
    }

    @Transactional
    boolean remove(UUID tenantId, MemoryKind kind) {
        boolean removed = jdbc.sql("delete from tenant_retention where tenant_id = :tenantId and kind = :kind")
                        .param("tenantId", tenantId)
                        .param("kind", kind.wireName())
                        .update()
                > 0;
        if (removed) {
            events.publishEvent(
                    Audited.of(tenantId, "retention.removed", null, List.of(), Map.of("kind", kind.wireName())));
        }
        return removed;
    }

    private static RetentionRule rule(UUID tenantId, String kind, Long seconds) {
        return new RetentionRule(
                tenantId, MemoryKind.fromWireName(kind), seconds == null ? null : Duration.ofSeconds(seconds));
    }
}
