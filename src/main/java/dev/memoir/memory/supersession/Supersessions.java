package dev.memoir.memory.supersession;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.tenant.TenantId;

/**
 * Which memory superseded which, written in SQL so that a memory's validity ends when its successor was said, as
 * PostgreSQL dated that successor (from its turns, by trigger), in the same statement. Every statement names the
 * user, so it reads that user's partition only.
 */
@Repository
public class Supersessions {

    /** A memory as supersession needs to see it, locked for the caller's transaction. */
    public record Row(UUID id, String userId, MemoryKind kind, UUID supersededBy) {}

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    Supersessions(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * The tenant's memories among {@code ids} that are not expired, locked until the transaction ends, in id order
     * (two requests locking overlapping sets cannot deadlock).
     */
    public List<Row> lock(UUID tenantId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                select id, user_id, kind, superseded_by from memory_records
                where tenant_id = :tenantId and id in (:ids) and (expires_at is null or expires_at > now())
                order by id
                for update""")
                .param("tenantId", tenantId)
                .param("ids", ids)
                .query((rs, n) -> new Row(
                        rs.getObject("id", UUID.class),
                        rs.getString("user_id"),
                        MemoryKind.fromWireName(rs.getString("kind")),
                        rs.getObject("superseded_by", UUID.class)))
                .list();
    }

    /**
     * Marks the live memories among {@code ids} superseded by {@code by}: each was valid until {@code by} was said
     * (never before it was itself said). A fact loses its dedup key, as an edit does: adding its text again must
     * add a live memory, not find this one. Answers how many were marked.
     */
    public int supersede(UUID tenantId, String userId, UUID by, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<MemoryEvent> superseded = jdbc.sql("""
                update memory_records m
                set superseded_by = :by,
                    valid_to = greatest(m.occurred_from, (select s.occurred_from from memory_records s
                                                          where s.tenant_id = :tenantId and s.user_id = :userId
                                                            and s.id = :by)),
                    dedup_key = case when m.kind = 'fact' then null else m.dedup_key end
                where m.tenant_id = :tenantId and m.user_id = :userId and m.id in (:ids) and m.id <> :by
                  and m.superseded_by is null
                returning m.id, m.kind""")
                .paramSource(params(tenantId, userId, by).addValue("ids", ids))
                .query((rs, n) -> new MemoryEvent(
                        MemoryEvent.Type.SUPERSEDED,
                        new TenantId(tenantId),
                        userId,
                        rs.getObject("id", UUID.class),
                        MemoryKind.fromWireName(rs.getString("kind")),
                        null,
                        null,
                        by))
                .list();
        superseded.forEach(events::publishEvent);
        return superseded.size();
    }

    /**
     * As {@link #supersede}, only if {@code by} is still there, live and unexpired: locked with the memories it
     * supersedes, in id order, so that two memories judged at once to supersede each other cannot both end up
     * superseded.
     */
    public int supersedeIfLive(UUID tenantId, String userId, UUID by, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        Set<UUID> rows = new HashSet<>(ids);
        rows.add(by);
        boolean live = lock(tenantId, rows).stream()
                .anyMatch(row -> row.id().equals(by) && row.userId().equals(userId) && row.supersededBy() == null);
        return live ? supersede(tenantId, userId, by, ids) : 0;
    }

    /** Makes the memories that {@code by} superseded live again. Answers how many. */
    public int reinstate(UUID tenantId, String userId, UUID by) {
        return jdbc.sql("""
                update memory_records set superseded_by = null, valid_to = null
                where tenant_id = :tenantId and user_id = :userId and superseded_by = :by""").paramSource(params(tenantId, userId, by)).update();
    }

    /** The memories {@code by} superseded, oldest validity first. */
    public List<UUID> supersededBy(UUID tenantId, String userId, UUID by) {
        return jdbc.sql("""
                select id from memory_records
                where tenant_id = :tenantId and user_id = :userId and superseded_by = :by
                order by valid_to, id""")
                .paramSource(params(tenantId, userId, by))
                .query(UUID.class)
                .list();
    }

    private static MapSqlParameterSource params(UUID tenantId, String userId, UUID by) {
        return new MapSqlParameterSource()
                .addValue("tenantId", tenantId)
                .addValue("userId", userId)
                .addValue("by", by);
    }
}
