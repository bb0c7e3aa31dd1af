package dev.memoir.memory;

import static dev.memoir.common.jdbc.SqlTimes.instant;
import static dev.memoir.memory.store.SqlValues.uuidArray;
import static dev.memoir.memory.store.SqlValues.uuids;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.jdbc.StreamingJdbc;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.ArchivedMemory;
import dev.memoir.memory.api.ArchivedPassage;
import dev.memoir.memory.api.ArchivedRevision;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySource;
import dev.memoir.memory.api.Speaker;
import dev.memoir.memory.api.SupersessionProblem;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.store.ArchiveRestore;
import dev.memoir.memory.store.ArchivedVectors;
import dev.memoir.memory.supersession.SupersessionAudit;
import dev.memoir.tenant.TenantId;

/**
 * A user's memories as a user archive carries them, with their revisions and passages: read as streams in the
 * caller's transaction, and written back under another tenant and user with the ids the archive gives. A vector is
 * carried as base64 of little-endian 32-bit floats, and reused on restore only when the archive's embedding model
 * is this deployment's; otherwise the memory is embedded again, passages included.
 */
@Component
public class MemoryArchive {

    /*
     * A session's deletion leaves the memories that combine sessions (topic, recursive summary, reflected) and every
     * revision naming the session and its turns. An archive holds only references to records it holds, which its
     * import requires: those are left out, as the records they named are gone. The subqueries name the tenant as a
     * value (:tenantId, the query's own tenant), not as the outer row's column: on Citus a query whose every table is
     * filtered by one tenant runs on that tenant's shard as it is, where a correlated subquery over unnest would have
     * to be planned across shards, which Citus refuses.
     */
    private static final String MEMORY_COLUMNS = """
            m.id, m.kind, m.topic, m.speaker, m.text,
            case when exists (select 1 from sessions s where s.id = m.session_id and s.tenant_id = :tenantId
                                                       and s.user_id = m.user_id) then m.session_id end as session_id,
            array(select u.id from unnest(m.turn_ids) with ordinality u (id, n)
                  where exists (select 1 from turns t join sessions s on s.id = t.session_id and s.tenant_id = t.tenant_id
                                where t.id = u.id and t.tenant_id = :tenantId and s.user_id = m.user_id)
                  order by u.n) as turn_ids,
            m.dedup_key, m.version, m.created_at, m.updated_at, m.occurred_from, m.occurred_to, m.valid_to,
            m.superseded_by, m.expires_at, m.embedding_model, m.embedding::text as embedding, m.source, m.source_detail,
            m.trust""";

    private final JdbcClient jdbc;
    private final TextEmbedder embedder;
    private final AdvisoryLocks locks;
    private final SupersessionAudit supersessionAudit;
    private final ArchiveRestore restore;

    MemoryArchive(
            DataSource dataSource,
            TextEmbedder embedder,
            AdvisoryLocks locks,
            SupersessionAudit supersessionAudit,
            ArchiveRestore restore) {
        this.locks = locks;
        this.supersessionAudit = supersessionAudit;
        this.restore = restore;
        this.jdbc = StreamingJdbc.of(dataSource);
        this.embedder = embedder;
    }

    /** The embedding model this deployment embeds with, and its vectors' length. */
    public String embeddingModel() {
        return embedder.modelName();
    }

    /**
     * Holds the user until the transaction ends, as erasing the user does: adds in flight finish first, and an
     * erasure or another import of the user waits.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void holdUser(TenantId tenant, String userId) {
        // After an export's import of the user in flight, which holds it across its transactions (EXPORT_IMPORT).
        locks.lock(AdvisoryLocks.Space.EXPORT_IMPORT, AdvisoryLocks.userKey(tenant.value(), userId));
        locks.lock(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), userId));
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public boolean hasMemories(TenantId tenant, String userId) {
        return Boolean.TRUE.equals(jdbc.sql("select exists (select 1 from memory_records where "
                        + "tenant_id = :tenantId and user_id = :userId)")
                .paramSource(user(tenant, userId))
                .query(Boolean.class)
                .single());
    }

    /** Those of {@code ids} that are memories of the user: the ones an import has stored so far. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Set<UUID> memoriesAmong(TenantId tenant, String userId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                select id from memory_records
                where tenant_id = :tenantId and user_id = :userId and id = any(cast(:ids as uuid[]))""")
                .paramSource(user(tenant, userId).addValue("ids", uuidArray(ids)))
                .query(UUID.class)
                .list());
    }

    /**
     * The first of the user's memories whose supersession the API would have refused: superseded by a memory the
     * user does not have, by itself, by or of a kind that is not fact-bearing, or in a loop. Every chain must end
     * in a live memory; any length is legal, as exports of the service hold them. Run once an import has stored
     * the user's memories: a memory names one that may come after it.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<SupersessionProblem> supersessionProblem(TenantId tenant, String userId) {
        return supersessionAudit.firstProblem(tenant.value(), userId);
    }

    /** Every memory of the user, expired ones included, oldest first; close the stream. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedMemory> memories(TenantId tenant, String userId) {
        return jdbc
                .sql("select " + MEMORY_COLUMNS + " from memory_records m "
                        + "where m.tenant_id = :tenantId and m.user_id = :userId order by m.created_at, m.id")
                .paramSource(user(tenant, userId))
                .query((rs, n) -> new ArchivedMemory(
                        rs.getObject("id", UUID.class),
                        MemoryKind.fromWireName(rs.getString("kind")),
                        rs.getString("topic"),
                        rs.getString("speaker") == null ? null : Speaker.fromWireName(rs.getString("speaker")),
                        rs.getString("text"),
                        rs.getObject("session_id", UUID.class),
                        uuids(rs.getArray("turn_ids")),
                        rs.getString("dedup_key"),
                        rs.getInt("version"),
                        instant(rs, "created_at"),
                        instant(rs, "updated_at"),
                        instant(rs, "occurred_from"),
                        instant(rs, "occurred_to"),
                        instant(rs, "valid_to"),
                        rs.getObject("superseded_by", UUID.class),
                        instant(rs, "expires_at"),
                        rs.getString("embedding_model"),
                        ArchivedVectors.base64(rs.getString("embedding")),
                        MemorySource.fromWireName(rs.getString("source")),
                        rs.getString("source_detail"),
                        Trust.ofRank(rs.getInt("trust"))))
                .stream();
    }

    /**
     * Every subquery names the tenant as a value, not as the outer row's column: on Citus a query whose every table
     * is filtered by one tenant runs on that tenant's shard as it is, where a correlated subquery over unnest would
     * have to be planned across shards, which Citus refuses.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedRevision> revisions(TenantId tenant, String userId) {
        return jdbc
                .sql("""
                select r.id, r.memory_id, r.version, r.text,
                       case when exists (select 1 from sessions s where s.id = r.session_id
                                         and s.tenant_id = :tenantId and s.user_id = r.user_id)
                            then r.session_id end as session_id,
                       r.reason, r.created_at, r.absorbed_text,
                       case when r.absorbed_turn_ids is not null then
                           array(select u.id from unnest(r.absorbed_turn_ids) with ordinality u (id, n)
                                 where exists (select 1 from turns t join sessions s on s.id = t.session_id
                                                                                and s.tenant_id = t.tenant_id
                                               where t.id = u.id and t.tenant_id = :tenantId
                                                 and s.user_id = r.user_id)
                                 order by u.n) end as absorbed_turn_ids
                from memory_records m join memory_revisions r on r.memory_id = m.id and r.tenant_id = m.tenant_id
                                                             and r.user_id = m.user_id
                where m.tenant_id = :tenantId and m.user_id = :userId
                order by m.created_at, m.id, r.version""")
                .paramSource(user(tenant, userId))
                .query((rs, n) -> new ArchivedRevision(
                        rs.getObject("id", UUID.class),
                        rs.getObject("memory_id", UUID.class),
                        rs.getInt("version"),
                        rs.getString("text"),
                        rs.getObject("session_id", UUID.class),
                        rs.getString("reason"),
                        instant(rs, "created_at"),
                        rs.getString("absorbed_text"),
                        rs.getArray("absorbed_turn_ids") == null ? null : uuids(rs.getArray("absorbed_turn_ids"))))
                .stream();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedPassage> passages(TenantId tenant, String userId) {
        return jdbc
                .sql("""
                select memory_id, position, start_char, end_char, embedding_model, embedding::text as embedding
                from memory_passages where tenant_id = :tenantId and user_id = :userId
                order by memory_id, position""")
                .paramSource(user(tenant, userId))
                .query((rs, n) -> new ArchivedPassage(
                        rs.getObject("memory_id", UUID.class),
                        rs.getInt("position"),
                        rs.getInt("start_char"),
                        rs.getInt("end_char"),
                        rs.getString("embedding_model"),
                        ArchivedVectors.base64(rs.getString("embedding"))))
                .stream();
    }

    /**
     * Writes memories for the user. Dedup keys that name the user (a fact's, the recursive summary's) are made
     * anew for the new owner. A memory whose vector is missing, of another model or of another length is embedded
     * again, with its passages; answers how many were.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int restoreMemories(TenantId tenant, String userId, List<ArchivedMemory> memories) {
        return restore.memories(tenant, userId, memories);
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void restoreRevisions(TenantId tenant, String userId, List<ArchivedRevision> revisions) {
        restore.revisions(tenant, userId, revisions);
    }

    /**
     * Writes archived passages of memories whose vectors were reused (a memory embedded again got new passages and
     * its archived ones are skipped): the same model made both.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void restorePassages(TenantId tenant, String userId, List<ArchivedPassage> archived) {
        restore.passages(tenant, userId, archived);
    }

    private static MapSqlParameterSource user(TenantId tenant, String userId) {
        return new MapSqlParameterSource().addValue("tenantId", tenant.value()).addValue("userId", userId);
    }
}
