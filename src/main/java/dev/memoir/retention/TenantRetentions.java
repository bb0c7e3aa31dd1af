package dev.memoir.retention;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.RetentionRule;

/** The operator's retention rules per tenant (V33). */
@Repository
class TenantRetentions {

    private final JdbcClient jdbc;

    TenantRetentions(JdbcClient jdbc) {
        this.jdbc = jdbc;
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

    void put(UUID tenantId, MemoryKind kind, Duration keepFor) {
        jdbc.sql("""
                insert into tenant_retention (tenant_id, kind, keep_for)
                values (:tenantId, :kind, make_interval(secs => cast(:seconds as bigint)))
                on conflict (tenant_id, kind) do update set keep_for = excluded.keep_for""")
                .param("tenantId", tenantId)
                .param("kind", kind.wireName())
                .param("seconds", keepFor == null ? null : keepFor.toSeconds())
                .update();
    }

    boolean remove(UUID tenantId, MemoryKind kind) {
        return jdbc.sql("delete from tenant_retention where tenant_id = :tenantId and kind = :kind")
                        .param("tenantId", tenantId)
                        .param("kind", kind.wireName())
                        .update()
                > 0;
    }

    private static RetentionRule rule(UUID tenantId, String kind, Long seconds) {
        return new RetentionRule(
                tenantId, MemoryKind.fromWireName(kind), seconds == null ? null : Duration.ofSeconds(seconds));
    }
}
