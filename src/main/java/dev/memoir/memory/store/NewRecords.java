package dev.memoir.memory.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemoryScreening;
import dev.memoir.memory.api.NewMemory;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.quarantine.MemoryScreen;

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
    private final MemoryScreen screen;
    private final TurnTrust turnTrust;

    NewRecords(
            MemoryRecordRepository records,
            TextEmbedder embedder,
            MemoryPassages passages,
            ApplicationEventPublisher events,
            MemoryScreen screen,
            TurnTrust turnTrust) {
        this.records = records;
        this.turnTrust = turnTrust;
        this.screen = screen;
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

    // The turns these memories were made from whose own records are quarantined: what is made from them is too. A
    // turn's history record is written before anything else is made from it (HistoryMemoryWriter comes first).
    private Set<UUID> quarantinedSources(List<NewMemory> memories) {
        Set<UUID> quarantined = new HashSet<>();
        memories.stream()
                .filter(m -> m.kind() != MemoryKind.HISTORY && !m.turnIds().isEmpty())
                .collect(Collectors.groupingBy(
                        m -> m.userId(), Collectors.flatMapping(m -> m.turnIds().stream(), Collectors.toSet())))
                .forEach((userId, turnIds) -> quarantined.addAll(
                        screen.quarantinedTurns(memories.getFirst().tenant().value(), userId, turnIds)));
        return quarantined;
    }

    // Where each memory came from: as its writer says, or (null) made by a job; either way, one made from turns is
    // trusted no more than the least of them. A history memory's writer read its turn, so it is not looked up again.
    private List<MemoryOrigin> origins(List<NewMemory> memories) {
        Map<UUID, Trust> trust = turnTrust.of(
                memories.getFirst().tenant().value(),
                memories.stream()
                        .filter(m -> m.origin() == null || m.kind() != MemoryKind.HISTORY)
                        .flatMap(m -> m.turnIds().stream())
                        .collect(Collectors.toSet()));
        return memories.stream()
                .map(m -> {
                    if (m.origin() != null && (m.turnIds().isEmpty() || m.kind() == MemoryKind.HISTORY)) {
                        return m.origin();
                    }
                    MemoryOrigin given = m.origin() != null ? m.origin() : MemoryOrigin.derived(m.kind(), Trust.HIGH);
                    Trust made;
                    if (!m.turnIds().isEmpty()) {
                        made = TurnTrust.lowest(trust, m.turnIds());
                    } else if (m.sessionId() != null) {
                        // Made from a whole session (the first recursive summary): as the least of its turns.
                        made = turnTrust.lowestOfSession(m.tenant().value(), m.sessionId());
                    } else {
                        made = null;
                    }
                    // Made from nothing Memoir can still read (turns erased since): no more than medium.
                    return given.atMost(made == null ? Trust.MEDIUM : made);
                })
                .toList();
    }

    public List<MemoryRecord> save(List<NewMemory> memories) {
        // Those prepared while the turns arrived are taken, not embedded again (TextEmbedder.prepare).
        List<EmbeddedDocument> embedded = embedder.embedInPassages(memories.stream()
                .map(m -> EmbeddingText.of(m.topic(), m.text()))
                .toList());
        List<MemoryRecord> saved = new ArrayList<>(memories.size());
        List<MemoryPassages.Owner> owners = new ArrayList<>();
        Set<UUID> quarantinedTurns = quarantinedSources(memories);
        List<MemoryOrigin> origins = origins(memories);
        for (int i = 0; i < memories.size(); i++) {
            NewMemory m = memories.get(i);
            MemoryRecord record = new MemoryRecord(
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
                    m.occurredTo(),
                    origins.get(i));
            record.screen(screen.screenDerived(
                    m.tenant().value(),
                    m.text(),
                    m.kind() != MemoryKind.HISTORY && m.turnIds().stream().anyMatch(quarantinedTurns::contains)));
            saved.add(records.save(record));
            if (!embedded.get(i).passages().isEmpty()) {
                owners.add(EmbeddingText.passagesOf(saved.get(i), embedded.get(i)));
            }
        }
        if (!owners.isEmpty()) {
            // The passages' key is their memory's: written once the memories are.
            records.flush();
            passages.insert(owners, embedder.modelName());
        }
        for (MemoryRecord record : saved) {
            events.publishEvent(record.event(MemoryEvent.Type.CREATED, null));
            MemoryScreening screening = record.getScreening();
            if (screening != null && screening.state().equals(MemoryScreening.QUARANTINED)) {
                events.publishEvent(record.event(MemoryEvent.Type.QUARANTINED, String.join(",", screening.signs())));
            }
        }
        return saved;
    }
}
