package dev.memoir.memory.store;

import static dev.memoir.common.jdbc.SqlTimes.timestamptz;
import static dev.memoir.memory.store.SqlValues.uuidArray;
import static dev.memoir.memory.store.SqlValues.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.stereotype.Component;

import dev.memoir.common.jdbc.JdbcBatches;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.ArchivedMemory;
import dev.memoir.memory.api.ArchivedPassage;
import dev.memoir.memory.api.ArchivedRevision;
import dev.memoir.memory.api.DedupKey;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemoryScreening;
import dev.memoir.memory.quarantine.MemoryScreen;
import dev.memoir.tenant.TenantId;

/**
 * Writes a user's memories, revisions and passages back as a user archive carries them, under the tenant and user
 * importing them, in the caller's transaction (see {@code MemoryArchive}).
 */
@Component
public class ArchiveRestore {

    private final JdbcBatches batches;
    private final TextEmbedder embedder;
    private final MemoryPassages passages;

    private final MemoryScreen screen;
    private final ApplicationEventPublisher events;

    ArchiveRestore(
            JdbcBatches batches,
            TextEmbedder embedder,
            MemoryPassages passages,
            MemoryScreen screen,
            ApplicationEventPublisher events) {
        this.screen = screen;
        this.events = events;
        this.batches = batches;
        this.embedder = embedder;
        this.passages = passages;
    }

    /**
     * Writes memories for the user. Dedup keys that name the user (a fact's, the recursive summary's) are made
     * anew for the new owner. A memory whose vector is missing, of another model or of another length is embedded
     * again, with its passages; answers how many were.
     */
    public int memories(TenantId tenant, String userId, List<ArchivedMemory> memories) {
        List<float[]> vectors = new ArrayList<>(memories.size());
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            ArchivedMemory m = memories.get(i);
            if (m.text() == null || m.text().isBlank()) {
                throw new InvalidRequestException("archive", "memory " + m.id() + " has no text");
            }
            vectors.add(reusable(m.embeddingModel(), m.embedding()));
            if (vectors.get(i) == null) {
                missing.add(i);
            }
        }
        List<MemoryPassages.Owner> recomputed = embedMissing(tenant, userId, memories, vectors, missing);
        List<MapSqlParameterSource> rows = new ArrayList<>(memories.size());
        List<MemoryEvent> quarantined = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            ArchivedMemory m = memories.get(i);
            // Screened as if written now: an archive from before the screen, or from another policy, is no exception.
            MemoryScreening screening = screen.screen(tenant.value(), m.text());
            if (screening != null && screening.state().equals(MemoryScreening.QUARANTINED)) {
                quarantined.add(new MemoryEvent(
                        MemoryEvent.Type.QUARANTINED,
                        tenant,
                        userId,
                        m.id(),
                        m.kind(),
                        String.join(",", screening.signs()),
                        m.text()));
            }
            rows.add(row(tenant, userId, m, screening, vectors.get(i)));
        }
        batches.update(INSERT_MEMORY, rows);
        // Announced as a memory quarantined when written is (webhooks, the audit trail), once it is stored.
        quarantined.forEach(events::publishEvent);
        passages.insert(recomputed, embedder.modelName());
        return missing.size();
    }

    private static final String INSERT_MEMORY = """
                insert into memory_records (id, tenant_id, user_id, kind, topic, speaker, text, session_id, turn_ids,
                                            dedup_key, version, created_at, updated_at, occurred_from, occurred_to,
                                            valid_to, superseded_by, expires_at, embedding, embedding_model, screening,
                                            screening_signs, source, source_detail, trust)
                values (:id, :tenantId, :userId, :kind, :topic, :speaker, :text, :sessionId, :turnIds, :dedupKey,
                        :version, :createdAt, :updatedAt, :occurredFrom, :occurredTo, :validTo, :supersededBy,
                        :expiresAt, :vector, :model, :screening, cast(:screeningSigns as text[]), :source, :sourceDetail,
                        :trust)""";

    /** Embeds the memories whose vector could not be reused, in place; answers the passages of the long ones. */
    private List<MemoryPassages.Owner> embedMissing(
            TenantId tenant,
            String userId,
            List<ArchivedMemory> memories,
            List<float[]> vectors,
            List<Integer> missing) {
        List<EmbeddedDocument> embedded = embedder.embedInPassages(missing.stream()
                .map(i -> EmbeddingText.of(
                        memories.get(i).topic(), memories.get(i).text()))
                .toList());
        List<MemoryPassages.Owner> recomputed = new ArrayList<>();
        for (int j = 0; j < missing.size(); j++) {
            ArchivedMemory m = memories.get(missing.get(j));
            vectors.set(missing.get(j), embedded.get(j).embedding());
            if (!embedded.get(j).passages().isEmpty()) {
                recomputed.add(
                        EmbeddingText.passagesOf(m.id(), tenant.value(), userId, m.topic(), m.text(), embedded.get(j)));
            }
        }
        return recomputed;
    }

    private MapSqlParameterSource row(
            TenantId tenant, String userId, ArchivedMemory m, MemoryScreening screening, float[] vector) {
        MemoryOrigin origin = MemoryOrigin.restored(m.source(), m.trust());
        return user(tenant, userId)
                .addValue("source", origin.source().wireName())
                .addValue("sourceDetail", origin.sourceDetail())
                .addValue("trust", origin.trust().rank())
                .addValue("screening", screening == null ? null : screening.state())
                .addValue("screeningSigns", screening == null ? null : SqlValues.wordArray(screening.signs()))
                .addValue("id", m.id())
                .addValue("kind", m.kind().wireName())
                .addValue("topic", m.topic())
                .addValue("speaker", m.speaker() == null ? null : m.speaker().wireName())
                .addValue("text", m.text())
                .addValue("sessionId", m.sessionId())
                .addValue("turnIds", uuidArray(m.turnIds()))
                .addValue(
                        "dedupKey",
                        Optional.ofNullable(DedupKey.parse(m.dedupKey()))
                                .map(key -> key.reowned(m.kind(), tenant, userId, m.text())
                                        .value())
                                .orElse(null))
                .addValue("version", Math.max(1, m.version()))
                .addValue("createdAt", timestamptz(m.createdAt()))
                .addValue("updatedAt", timestamptz(m.updatedAt() == null ? m.createdAt() : m.updatedAt()))
                .addValue("occurredFrom", timestamptz(m.occurredFrom()))
                .addValue("occurredTo", timestamptz(m.occurredTo()))
                .addValue("validTo", timestamptz(m.validTo()))
                .addValue("supersededBy", m.supersededBy())
                .addValue("expiresAt", timestamptz(m.expiresAt()))
                .addValue("vector", vector(vector))
                .addValue("model", embedder.modelName());
    }

    public void revisions(TenantId tenant, String userId, List<ArchivedRevision> revisions) {
        batches.update(
                """
                insert into memory_revisions (id, tenant_id, user_id, memory_id, version, text, session_id, reason,
                                              created_at, absorbed_text, absorbed_turn_ids)
                values (:id, :tenantId, :userId, :memoryId, :version, :text, :sessionId, :reason, :createdAt,
                        :absorbedText, :absorbedTurnIds)""",
                revisions.stream()
                        .map(r -> user(tenant, userId)
                                .addValue("id", r.id())
                                .addValue("memoryId", r.memoryId())
                                .addValue("version", r.version())
                                .addValue("text", r.text())
                                .addValue("sessionId", r.sessionId())
                                .addValue("reason", r.reason())
                                .addValue("createdAt", timestamptz(r.createdAt()))
                                .addValue("absorbedText", r.absorbedText())
                                .addValue(
                                        "absorbedTurnIds",
                                        r.absorbedTurnIds() == null ? null : uuidArray(r.absorbedTurnIds())))
                        .toList());
    }

    /**
     * Writes archived passages of memories whose vectors were reused (a memory embedded again got new passages and
     * its archived ones are skipped): the same model made both.
     */
    public void passages(TenantId tenant, String userId, List<ArchivedPassage> archived) {
        List<MapSqlParameterSource> rows = new ArrayList<>();
        for (ArchivedPassage p : archived) {
            float[] vector = reusable(p.embeddingModel(), p.embedding());
            if (vector == null) {
                continue;
            }
            rows.add(user(tenant, userId)
                    .addValue("memoryId", p.memoryId())
                    .addValue("position", p.position())
                    .addValue("start", p.start())
                    .addValue("end", p.end())
                    .addValue("vector", vector(vector))
                    .addValue("model", p.embeddingModel()));
        }
        // A memory embedded again already has its new passages, which the conflict keeps.
        batches.update("""
                insert into memory_passages (memory_id, tenant_id, user_id, position, start_char, end_char,
                                             embedding, embedding_model)
                values (:memoryId, :tenantId, :userId, :position, :start, :end, :vector, :model)
                on conflict do nothing""", rows);
    }

    /** An archived vector, if this deployment's model made it and it is whole; null when it must be computed again. */
    private float[] reusable(String model, String base64) {
        float[] vector = embedder.modelName().equals(model) ? ArchivedVectors.floats(base64) : null;
        return vector != null && vector.length == embedder.dimensions() ? vector : null;
    }

    private static MapSqlParameterSource user(TenantId tenant, String userId) {
        return new MapSqlParameterSource().addValue("tenantId", tenant.value()).addValue("userId", userId);
    }
}
