package dev.memoir.memory;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.tenant.TenantId;

/**
 * Deletes memories for good, a batch at a time: their passages go by foreign key, their revisions by trigger, and
 * their provenance (the turns they rest on) is part of the row. What another memory superseded stays superseded.
 * What the retention feature needs of memory; each batch is a transaction of its own.
 */
@Repository
public class MemoryPurge {

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    MemoryPurge(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Deletes up to {@code batch} expired memories (on the partial index of V32); answers how many of each kind. The
     * expiry is checked again as each row is deleted: a change that cleared it meanwhile keeps the memory.
     */
    @Transactional
    public Map<MemoryKind, Integer> expired(int batch) {
        return counted(deleted("expiry", """
                with doomed as (
                    select id, tenant_id, user_id from memory_records
                    where expires_at is not null and expires_at <= now()
                    limit :batch)
                delete from memory_records m using doomed d
                where m.id = d.id and m.tenant_id = d.tenant_id and m.user_id = d.user_id
                  and m.expires_at <= now()
                returning m.id, m.tenant_id, m.user_id, m.kind""", new MapSqlParameterSource("batch", batch)));
    }

    /**
     * Deletes up to {@code batch} memories older than their retention: a tenant's own rule for the kind when it
     * has one (a null keep-for keeping them for good), else the deployment's. Reads every memory of the kinds that
     * have a rule: run it seldom.
     */
    @Transactional
    public Map<MemoryKind, Integer> pastRetention(
            Collection<RetentionRule> defaults, Collection<RetentionRule> overrides, int batch) {
        if (defaults.isEmpty() && overrides.stream().allMatch(rule -> rule.keepFor() == null)) {
            return Map.of();
        }
        MapSqlParameterSource params = new MapSqlParameterSource("batch", batch)
                .addValue("defaultKinds", kinds(defaults))
                .addValue("defaultSeconds", seconds(defaults))
                .addValue(
                        "overrideTenants",
                        overrides.stream().map(RetentionRule::tenantId).toArray(UUID[]::new))
                .addValue("overrideKinds", kinds(overrides))
                .addValue("overrideSeconds", seconds(overrides));
        return counted(deleted("retention", """
                with defaults as (
                    select * from unnest(cast(:defaultKinds as text[]), cast(:defaultSeconds as bigint[]))
                        as d(kind, seconds)
                ), overrides as (
                    select * from unnest(cast(:overrideTenants as uuid[]), cast(:overrideKinds as text[]),
                                         cast(:overrideSeconds as bigint[])) as o(tenant_id, kind, seconds)
                ), doomed as (
                    select m.id, m.tenant_id, m.user_id
                    from memory_records m
                    left join overrides o on o.tenant_id = m.tenant_id and o.kind = m.kind
                    left join defaults d on d.kind = m.kind
                    where m.kind in (select kind from defaults union select kind from overrides)
                      and m.created_at < now() - make_interval(secs => case when o.tenant_id is not null
                                                                            then o.seconds else d.seconds end)
                    limit :batch)
                delete from memory_records m using doomed x
                where m.id = x.id and m.tenant_id = x.tenant_id and m.user_id = x.user_id
                returning m.id, m.tenant_id, m.user_id, m.kind""", params));
    }

    /**
     * Runs a delete that returns the rows it deleted, and tells the listeners of {@link MemoryEvent} about each, in
     * the deleting transaction; answers the deleted memories' kinds.
     */
    private List<String> deleted(String reason, String sql, MapSqlParameterSource params) {
        List<MemoryEvent> deleted = jdbc.sql(sql)
                .paramSource(params)
                .query((rs, n) -> new MemoryEvent(
                        MemoryEvent.Type.DELETED,
                        new TenantId(rs.getObject("tenant_id", UUID.class)),
                        rs.getString("user_id"),
                        rs.getObject("id", UUID.class),
                        MemoryKind.fromWireName(rs.getString("kind")),
                        reason,
                        null))
                .list();
        deleted.forEach(events::publishEvent);
        return deleted.stream().map(event -> event.kind().wireName()).toList();
    }

    private static String[] kinds(Collection<RetentionRule> rules) {
        return rules.stream().map(rule -> rule.kind().wireName()).toArray(String[]::new);
    }

    private static Long[] seconds(Collection<RetentionRule> rules) {
        return rules.stream()
                .map(rule -> rule.keepFor() == null ? null : rule.keepFor().toSeconds())
                .toArray(Long[]::new);
    }

    private static Map<MemoryKind, Integer> counted(List<String> kinds) {
        Map<MemoryKind, Integer> counts = new EnumMap<>(MemoryKind.class);
        kinds.forEach(kind -> counts.merge(MemoryKind.fromWireName(kind), 1, Integer::sum));
        return counts;
    }
}
