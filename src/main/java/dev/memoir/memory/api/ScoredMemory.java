package dev.memoir.memory.api;

import java.time.Instant;
import java.util.UUID;

/**
 * A memory found by a search, in the search's order, with the cosine similarity of its embedding to the query
 * ({@code score}, 0 while the memory awaits re-embedding by a newly configured model), the dialogue time it
 * records, and how the search ranked it.
 */
public record ScoredMemory(
        UUID id,
        MemoryKind kind,
        String topic,
        String text,
        double score,
        Provenance provenance,
        Instant occurredFrom,
        Instant occurredTo,
        SearchExplanation explanation) {}
