package dev.memoir.memory.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.MemoryEvent;
import dev.memoir.memory.NewMemory;

/**
 * Saves new memories in the caller's transaction: embedded at once, long ones with their passages, and each told to
 * the listeners of {@link MemoryEvent}.
 */
@Component
public class NewRecords {

    private final MemoryRecordRepository records;
    private final TextEmbedder embedder;
    private final MemoryPassages passages;
    private final ApplicationEventPublisher events;

    NewRecords(
            MemoryRecordRepository records,
            TextEmbedder embedder,
            MemoryPassages passages,
            ApplicationEventPublisher events) {
        this.records = records;
        this.embedder = embedder;
        this.passages = passages;
        this.events = events;
    }

    /** A memory stored under its dedup key: the one just saved, or the live one kept from before. */
    public record Kept(MemoryRecord record, boolean created) {}

    /** Saves a memory, unless a live one is already stored under its dedup key. */
    public Kept saveUnlessKept(NewMemory memory) {
        if (memory.dedupKey() != null) {
            Optional<MemoryRecord> existing = records.findByTenantIdAndUserIdAndDedupKey(
                    memory.tenant().value(), memory.userId(), memory.dedupKey().value());
            if (existing.isPresent() && existing.get().unexpired()) {
                return new Kept(existing.get(), false);
            }
            if (existing.isPresent()) {
                // Expired and waiting for the purge: the memory written now replaces it, as if it were gone.
                records.delete(existing.get());
                records.flush();
            }
        }
        // Two workers racing on one dedup key: the second insert fails on the unique index, its job is retried,
        // and the retry finds the first worker's record above.
        return new Kept(save(List.of(memory)).getFirst(), true);
    }

    public List<MemoryRecord> save(List<NewMemory> memories) {
        // Those prepared while the turns arrived are taken, not embedded again (TextEmbedder.prepare).
        List<EmbeddedDocument> embedded = embedder.embedInPassages(memories.stream()
                .map(m -> EmbeddingText.of(m.topic(), m.text()))
                .toList());
        List<MemoryRecord> saved = new ArrayList<>(memories.size());
        List<MemoryPassages.Owner> owners = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            NewMemory m = memories.get(i);
            saved.add(records.save(new MemoryRecord(
                    m.tenant().value(),
                    m.userId(),
                    m.kind(),
                    m.text(),
                    embedded.get(i).embedding(),
                    embedder.modelName(),
                    m.sessionId(),
                    m.turnIds(),
                    m.dedupKey() == null ? null : m.dedupKey().value(),
                    m.topic(),
                    m.speaker(),
                    m.occurredFrom(),
                    m.occurredTo())));
            if (!embedded.get(i).passages().isEmpty()) {
                owners.add(EmbeddingText.passagesOf(saved.get(i), embedded.get(i)));
            }
        }
        if (!owners.isEmpty()) {
            // The passages' key is their memory's: written once the memories are.
            records.flush();
            passages.insert(owners, embedder.modelName());
        }
        saved.forEach(record -> events.publishEvent(record.event(MemoryEvent.Type.CREATED, null)));
        return saved;
    }
}
