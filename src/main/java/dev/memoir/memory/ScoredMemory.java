package dev.memoir.memory;

import java.util.UUID;

/** A memory found by a search, with its cosine similarity to the query. */
public record ScoredMemory(UUID id, MemoryKind kind, String topic, String text, double score, Provenance provenance) {
}
