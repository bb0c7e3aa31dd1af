package dev.memoir.memory.store;

import java.util.ArrayList;
import java.util.List;

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
