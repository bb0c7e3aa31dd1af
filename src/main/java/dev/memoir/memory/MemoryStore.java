package dev.memoir.memory;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.tenant.TenantId;
import dev.memoir.web.NotFoundException;

/** Stores, embeds and searches memory records. The only way other features reach the memory table. */
@Service
public class MemoryStore {

    private final MemoryRecordRepository records;
    private final EmbeddingModel embeddingModel;

    MemoryStore(MemoryRecordRepository records, EmbeddingModel embeddingModel) {
        this.records = records;
        this.embeddingModel = embeddingModel;
    }

    public float[] embed(String text) {
        return embeddingModel.embed(text);
    }

    /** Writes a memory, or returns the one already written under the same dedup key. */
    @Transactional
    public MemoryView write(NewMemory memory) {
        if (memory.dedupKey() != null) {
            Optional<MemoryRecord> existing = records.findByDedupKey(memory.dedupKey());
            if (existing.isPresent()) {
                return view(existing.get(), null);
            }
        }
        // Two workers racing on one dedup key: the second insert fails on the unique index, its job is retried,
        // and the retry finds the first worker's record above.
        MemoryRecord record = new MemoryRecord(memory.tenant().value(), memory.userId(), memory.kind(),
                memory.text(), embed(memory.text()), memory.sessionId(), memory.turnIds(), memory.dedupKey());
        return view(records.save(record), null);
    }

    /** Writes several memories in the caller's transaction (imported or chatted turns). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void writeAll(List<NewMemory> memories) {
        List<float[]> embeddings = embeddingModel.embed(memories.stream().map(NewMemory::text).toList());
        for (int i = 0; i < memories.size(); i++) {
            NewMemory m = memories.get(i);
            records.save(new MemoryRecord(m.tenant().value(), m.userId(), m.kind(), m.text(), embeddings.get(i),
                    m.sessionId(), m.turnIds(), m.dedupKey()));
        }
    }

    /**
     * The user's memories of the given kinds nearest to a query vector, best first, skipping memories that rest
     * on any of the excluded turns (those already in the prompt verbatim).
     */
    @Transactional(readOnly = true)
    public List<ScoredMemory> nearest(TenantId tenant, String userId, Collection<MemoryKind> kinds, float[] query,
            int limit, Collection<UUID> excludedTurnIds) {
        return nearestRecords(tenant, userId, kinds, query, limit, excludedTurnIds).stream()
                .map(r -> new ScoredMemory(r.getId(), r.getKind(), r.getText(),
                        Vectors.cosine(query, r.getEmbedding()), provenance(r)))
                .toList();
    }

    @Transactional(readOnly = true)
    public List<MemoryView> search(TenantId tenant, String userId, Collection<MemoryKind> kinds, String query,
            int limit) {
        float[] vector = embed(query);
        return nearestRecords(tenant, userId, kinds, vector, limit, List.of()).stream()
                .map(r -> view(r, Vectors.cosine(vector, r.getEmbedding())))
                .toList();
    }

    private List<MemoryRecord> nearestRecords(TenantId tenant, String userId, Collection<MemoryKind> kinds,
            float[] query, int limit, Collection<UUID> excludedTurnIds) {
        if (limit <= 0 || kinds.isEmpty()) {
            return List.of();
        }
        Set<String> kindNames = kinds.stream().map(MemoryKind::wireName).collect(Collectors.toSet());
        return records.findNearest(tenant.value(), userId, kindNames, Vectors.literal(query),
                Vectors.uuidArrayLiteral(excludedTurnIds), limit);
    }

    @Transactional(readOnly = true)
    public List<MemoryView> newest(TenantId tenant, String userId, Collection<MemoryKind> kinds, int limit) {
        return records.findByTenantIdAndUserIdAndKindInOrderByCreatedAtDesc(tenant.value(), userId, kinds,
                        Limit.of(limit)).stream()
                .map(r -> view(r, null))
                .toList();
    }

    @Transactional(readOnly = true)
    public MemoryView get(TenantId tenant, UUID id) {
        return view(find(tenant, id), null);
    }

    @Transactional
    public MemoryView updateText(TenantId tenant, UUID id, String text) {
        MemoryRecord record = find(tenant, id);
        record.replaceText(text, embed(text));
        return view(record, null);
    }

    @Transactional
    public void delete(TenantId tenant, UUID id) {
        records.delete(find(tenant, id));
    }

    /** Deletes every memory of a user; part of erasing the user. */
    @Transactional(propagation = Propagation.MANDATORY)
    public int deleteAllForUser(TenantId tenant, String userId) {
        return records.deleteAllForUser(tenant.value(), userId);
    }

    private MemoryRecord find(TenantId tenant, UUID id) {
        return records.findByIdAndTenantId(id, tenant.value())
                .orElseThrow(() -> new NotFoundException("Memory", id));
    }

    private static MemoryView view(MemoryRecord r, Double score) {
        return new MemoryView(r.getId(), r.getKind(), r.getText(), score, provenance(r), r.getCreatedAt(),
                r.getUpdatedAt());
    }

    private static Provenance provenance(MemoryRecord r) {
        return new Provenance(r.getSessionId(), r.getTurnIds());
    }
}
