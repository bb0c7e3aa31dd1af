package dev.memoir.memory;

import static dev.memoir.memory.store.SqlValues.uuidArray;
import static dev.memoir.memory.store.SqlValues.uuids;
import static dev.memoir.memory.store.SqlValues.vector;

import static dev.memoir.web.SqlTimes.instant;
import static dev.memoir.web.SqlTimes.timestamptz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.store.EmbeddingText;
import dev.memoir.memory.store.MemoryPassages;
import dev.memoir.memory.store.MemoryRecordRepository;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.AdvisoryLocks;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.StreamingJdbc;

/**
 * A user's memories as a user archive carries them, with their revisions and passages: read as streams in the
 * caller's transaction, and written back under another tenant and user with the ids the archive gives. A vector is
 * carried as base64 of little-endian 32-bit floats, and reused on restore only when the archive's embedding model
 * is this deployment's; otherwise the memory is embedded again, passages included.
 */
@Component
public class MemoryArchive {

    /** A memory as archived; {@code embedding} null when left out. */
    public record ArchivedMemory(UUID id, MemoryKind kind, String topic, Speaker speaker, String text,
            UUID sessionId, List<UUID> turnIds, String dedupKey, int version, Instant createdAt, Instant updatedAt,
            Instant occurredFrom, Instant occurredTo, Instant validTo, UUID supersededBy, Instant expiresAt,
            String embeddingModel, String embedding) {
    }

    /** One of a memory's earlier versions, as archived. */
    public record ArchivedRevision(UUID id, UUID memoryId, int version, String text, UUID sessionId, String reason,
            Instant createdAt, String absorbedText, List<UUID> absorbedTurnIds) {
    }

    /** A passage of a long memory, as archived. */
    public record ArchivedPassage(UUID memoryId, int position, int start, int end, String embeddingModel,
            String embedding) {
    }

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
            m.superseded_by, m.expires_at, m.embedding_model, m.embedding::text as embedding""";

    private final NamedParameterJdbcTemplate jdbc;
    private final TextEmbedder embedder;
    private final MemoryPassages passages;
    private final AdvisoryLocks locks;
    private final MemoryRecordRepository records;

    MemoryArchive(DataSource dataSource, TextEmbedder embedder, MemoryPassages passages,
            MemoryRecordRepository records, AdvisoryLocks locks) {
        this.locks = locks;
        this.records = records;
        this.jdbc = StreamingJdbc.of(dataSource);
        this.embedder = embedder;
        this.passages = passages;
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
        locks.lock(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant.value(), userId));
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public boolean hasMemories(TenantId tenant, String userId) {
        return Boolean.TRUE.equals(jdbc.queryForObject("select exists (select 1 from memory_records where "
                + "tenant_id = :tenantId and user_id = :userId)", user(tenant, userId), Boolean.class));
    }

    /** Those of {@code ids} that are memories of the user: the ones an import has stored so far. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Set<UUID> memoriesAmong(TenantId tenant, String userId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.queryForList("""
                select id from memory_records
                where tenant_id = :tenantId and user_id = :userId and id = any(cast(:ids as uuid[]))""",
                user(tenant, userId).addValue("ids", uuidArray(ids)), UUID.class));
    }

    /** A memory whose supersession breaks the API's rules, and which rule. */
    public record SupersessionProblem(UUID memoryId, UUID supersededBy, String problem) {
    }

    /**
     * The first of the user's memories whose supersession the API would have refused: superseded by a memory the
     * user does not have, by itself, by or of a kind that is not fact-bearing, or in a loop. Every chain must end
     * in a live memory; any length is legal, as exports of the service hold them. Run once an import has stored
     * the user's memories: a memory names one that may come after it.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<SupersessionProblem> supersessionProblem(TenantId tenant, String userId) {
        MapSqlParameterSource user = user(tenant, userId).addValue("factBearing",
                MemoryKind.FACT_BEARING.stream().map(MemoryKind::wireName).toList());
        RowMapper<SupersessionProblem> problem = (rs, n) -> new SupersessionProblem(rs.getObject("id", UUID.class),
                rs.getObject("superseded_by", UUID.class), rs.getString("problem"));
        // In this order: the loop check takes every supersessor to be a memory of the user.
        List<String> checks = List.of("""
                select m.id, m.superseded_by, 'names no memory of the archive' as problem
                from memory_records m
                where m.tenant_id = :tenantId and m.user_id = :userId and m.superseded_by is not null
                  and not exists (select 1 from memory_records s where s.tenant_id = m.tenant_id
                                  and s.user_id = m.user_id and s.id = m.superseded_by)
                limit 1""", """
                select m.id, m.superseded_by, 'names the memory itself: a memory cannot supersede itself' as problem
                from memory_records m
                where m.tenant_id = :tenantId and m.user_id = :userId and m.superseded_by = m.id
                limit 1""", """
                select m.id, m.superseded_by,
                       case when m.kind not in (:factBearing) then 'is set on a ' || m.kind || ' memory'
                            else 'names a ' || s.kind || ' memory' end
                       || ': only fact-bearing memories (' || array_to_string(array[:factBearing], ', ')
                       || ') supersede and are superseded' as problem
                from memory_records m join memory_records s on s.tenant_id = m.tenant_id and s.user_id = m.user_id
                                                        and s.id = m.superseded_by
                where m.tenant_id = :tenantId and m.user_id = :userId
                  and (m.kind not in (:factBearing) or s.kind not in (:factBearing))
                limit 1""", """
                with recursive settled (id) as (
                    select id from memory_records
                    where tenant_id = :tenantId and user_id = :userId and superseded_by is null
                    union all
                    select m.id from memory_records m join settled on m.superseded_by = settled.id
                    where m.tenant_id = :tenantId and m.user_id = :userId
                )
                select m.id, m.superseded_by, 'closes a loop of supersessions: a chain must end in a live memory'
                       as problem
                from memory_records m
                where m.tenant_id = :tenantId and m.user_id = :userId and m.superseded_by is not null
                  and not exists (select 1 from settled where settled.id = m.id)
                limit 1""");
        for (String check : checks) {
            List<SupersessionProblem> found = jdbc.query(check, user, problem);
            if (!found.isEmpty()) {
                return Optional.of(found.getFirst());
            }
        }
        return Optional.empty();
    }

    /** Every memory of the user, expired ones included, oldest first; close the stream. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedMemory> memories(TenantId tenant, String userId) {
        return jdbc.queryForStream("select " + MEMORY_COLUMNS + " from memory_records m "
                + "where m.tenant_id = :tenantId and m.user_id = :userId order by m.created_at, m.id",
                user(tenant, userId),
                (rs, n) -> new ArchivedMemory(rs.getObject("id", UUID.class),
                        MemoryKind.fromWireName(rs.getString("kind")), rs.getString("topic"),
                        rs.getString("speaker") == null ? null : Speaker.fromWireName(rs.getString("speaker")),
                        rs.getString("text"), rs.getObject("session_id", UUID.class), uuids(rs.getArray("turn_ids")),
                        rs.getString("dedup_key"), rs.getInt("version"), instant(rs, "created_at"),
                        instant(rs, "updated_at"), instant(rs, "occurred_from"), instant(rs, "occurred_to"),
                        instant(rs, "valid_to"), rs.getObject("superseded_by", UUID.class),
                        instant(rs, "expires_at"), rs.getString("embedding_model"),
                        base64(rs.getString("embedding"))));
    }

    /**
     * Every subquery names the tenant as a value, not as the outer row's column: on Citus a query whose every table
     * is filtered by one tenant runs on that tenant's shard as it is, where a correlated subquery over unnest would
     * have to be planned across shards, which Citus refuses.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedRevision> revisions(TenantId tenant, String userId) {
        return jdbc.queryForStream("""
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
                order by m.created_at, m.id, r.version""", user(tenant, userId),
                (rs, n) -> new ArchivedRevision(rs.getObject("id", UUID.class), rs.getObject("memory_id", UUID.class),
                        rs.getInt("version"), rs.getString("text"), rs.getObject("session_id", UUID.class),
                        rs.getString("reason"), instant(rs, "created_at"), rs.getString("absorbed_text"),
                        rs.getArray("absorbed_turn_ids") == null ? null : uuids(rs.getArray("absorbed_turn_ids"))));
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedPassage> passages(TenantId tenant, String userId) {
        return jdbc.queryForStream("""
                select memory_id, position, start_char, end_char, embedding_model, embedding::text as embedding
                from memory_passages where tenant_id = :tenantId and user_id = :userId
                order by memory_id, position""", user(tenant, userId),
                (rs, n) -> new ArchivedPassage(rs.getObject("memory_id", UUID.class), rs.getInt("position"),
                        rs.getInt("start_char"), rs.getInt("end_char"), rs.getString("embedding_model"),
                        base64(rs.getString("embedding"))));
    }

    /**
     * Writes memories for the user. Dedup keys that name the user (a fact's, the recursive summary's) are made
     * anew for the new owner. A memory whose vector is missing, of another model or of another length is embedded
     * again, with its passages; answers how many were.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int restoreMemories(TenantId tenant, String userId, List<ArchivedMemory> memories) {
        List<float[]> vectors = new ArrayList<>(memories.size());
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            ArchivedMemory m = memories.get(i);
            if (m.text() == null || m.text().isBlank()) {
                throw new InvalidRequestException("archive", "memory " + m.id() + " has no text");
            }
            float[] vector = embedder.modelName().equals(m.embeddingModel()) ? floats(m.embedding()) : null;
            vectors.add(vector != null && vector.length == embedder.dimensions() ? vector : null);
            if (vectors.get(i) == null) {
                missing.add(i);
            }
        }
        List<EmbeddedDocument> embedded = embedder.embedInPassages(missing.stream()
                .map(i -> EmbeddingText.of(memories.get(i).topic(), memories.get(i).text())).toList());
        List<MemoryPassages.Owner> recomputed = new ArrayList<>();
        for (int j = 0; j < missing.size(); j++) {
            ArchivedMemory m = memories.get(missing.get(j));
            vectors.set(missing.get(j), embedded.get(j).embedding());
            if (!embedded.get(j).passages().isEmpty()) {
                recomputed.add(EmbeddingText.passagesOf(m.id(), tenant.value(), userId, m.topic(), m.text(),
                        embedded.get(j)));
            }
        }
        MapSqlParameterSource[] rows = new MapSqlParameterSource[memories.size()];
        for (int i = 0; i < memories.size(); i++) {
            ArchivedMemory m = memories.get(i);
            rows[i] = user(tenant, userId).addValue("id", m.id()).addValue("kind", m.kind().wireName())
                    .addValue("topic", m.topic()).addValue("speaker", m.speaker() == null ? null
                            : m.speaker().wireName())
                    .addValue("text", m.text()).addValue("sessionId", m.sessionId())
                    .addValue("turnIds", uuidArray(m.turnIds()))
                    .addValue("dedupKey", dedupKey(tenant, userId, m))
                    .addValue("version", Math.max(1, m.version())).addValue("createdAt", timestamptz(m.createdAt()))
                    .addValue("updatedAt", timestamptz(m.updatedAt() == null ? m.createdAt() : m.updatedAt()))
                    .addValue("occurredFrom", timestamptz(m.occurredFrom()))
                    .addValue("occurredTo", timestamptz(m.occurredTo()))
                    .addValue("validTo", timestamptz(m.validTo())).addValue("supersededBy", m.supersededBy())
                    .addValue("expiresAt", timestamptz(m.expiresAt()))
                    .addValue("vector", vector(vectors.get(i)))
                    .addValue("model", embedder.modelName());
        }
        jdbc.batchUpdate("""
                insert into memory_records (id, tenant_id, user_id, kind, topic, speaker, text, session_id, turn_ids,
                                            dedup_key, version, created_at, updated_at, occurred_from, occurred_to,
                                            valid_to, superseded_by, expires_at, embedding, embedding_model)
                values (:id, :tenantId, :userId, :kind, :topic, :speaker, :text, :sessionId, :turnIds, :dedupKey,
                        :version, :createdAt, :updatedAt, :occurredFrom, :occurredTo, :validTo, :supersededBy,
                        :expiresAt, :vector, :model)""", rows);
        passages.insert(recomputed, embedder.modelName());
        return missing.size();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void restoreRevisions(TenantId tenant, String userId, List<ArchivedRevision> revisions) {
        jdbc.batchUpdate("""
                insert into memory_revisions (id, tenant_id, user_id, memory_id, version, text, session_id, reason,
                                              created_at, absorbed_text, absorbed_turn_ids)
                values (:id, :tenantId, :userId, :memoryId, :version, :text, :sessionId, :reason, :createdAt,
                        :absorbedText, :absorbedTurnIds)""", revisions.stream().map(r -> user(tenant, userId)
                .addValue("id", r.id()).addValue("memoryId", r.memoryId()).addValue("version", r.version())
                .addValue("text", r.text()).addValue("sessionId", r.sessionId()).addValue("reason", r.reason())
                .addValue("createdAt", timestamptz(r.createdAt())).addValue("absorbedText", r.absorbedText())
                .addValue("absorbedTurnIds", r.absorbedTurnIds() == null ? null : uuidArray(r.absorbedTurnIds())))
                .toArray(MapSqlParameterSource[]::new));
    }

    /**
     * Writes archived passages of memories whose vectors were reused (a memory embedded again got new passages and
     * its archived ones are skipped): the same model made both.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void restorePassages(TenantId tenant, String userId, List<ArchivedPassage> archived) {
        List<MapSqlParameterSource> rows = new ArrayList<>();
        for (ArchivedPassage p : archived) {
            float[] vector = embedder.modelName().equals(p.embeddingModel()) ? floats(p.embedding()) : null;
            if (vector == null || vector.length != embedder.dimensions()) {
                continue;
            }
            rows.add(user(tenant, userId).addValue("memoryId", p.memoryId()).addValue("position", p.position())
                    .addValue("start", p.start()).addValue("end", p.end())
                    .addValue("vector", vector(vector)).addValue("model", p.embeddingModel()));
        }
        if (!rows.isEmpty()) {
            // A memory embedded again already has its new passages, which the conflict keeps.
            jdbc.batchUpdate("""
                    insert into memory_passages (memory_id, tenant_id, user_id, position, start_char, end_char,
                                                 embedding, embedding_model)
                    values (:memoryId, :tenantId, :userId, :position, :start, :end, :vector, :model)
                    on conflict do nothing""", rows.toArray(MapSqlParameterSource[]::new));
        }
    }

    /** The dedup key under the new owner: keys that name the owner are made anew, the others are kept. */
    private static String dedupKey(TenantId tenant, String userId, ArchivedMemory m) {
        if (m.dedupKey() == null) {
            return null;
        }
        return switch (m.kind()) {
            case FACT -> MemoryStore.factDedupKey(tenant, userId, m.text());
            case RECURSIVE_SUMMARY -> MemoryStore.recursiveSummaryKey(tenant, userId);
            default -> m.dedupKey();
        };
    }

    private static String base64(String vectorText) {
        if (vectorText == null) {
            return null;
        }
        String[] parts = vectorText.substring(1, vectorText.length() - 1).split(",");
        ByteBuffer bytes = ByteBuffer.allocate(parts.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (String part : parts) {
            bytes.putFloat(Float.parseFloat(part));
        }
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    /**
     * The vector, or null when absent, not a whole number of floats, not finite or all zeros: such a vector is
     * computed again. A zero vector has no direction, so its cosine is NaN and search would score it so.
     */
    static float[] floats(String base64) {
        if (base64 == null) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("archive", "an embedding is not base64");
        }
        if (bytes.length == 0 || bytes.length % 4 != 0) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[bytes.length / 4];
        double norm = 0;
        for (int i = 0; i < vector.length; i++) {
            vector[i] = buffer.getFloat();
            if (!Float.isFinite(vector[i])) {
                return null;
            }
            norm += (double) vector[i] * vector[i];
        }
        return norm > 0 && Double.isFinite(norm) ? vector : null;
    }

    private static MapSqlParameterSource user(TenantId tenant, String userId) {
        return new MapSqlParameterSource().addValue("tenantId", tenant.value()).addValue("userId", userId);
    }
}
