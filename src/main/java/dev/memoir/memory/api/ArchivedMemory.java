package dev.memoir.memory.api;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A memory as archived; {@code embedding} null when left out. */
public record ArchivedMemory(
        UUID id,
        MemoryKind kind,
        String topic,
        Speaker speaker,
        String text,
        UUID sessionId,
        List<UUID> turnIds,
        String dedupKey,
        int version,
        Instant createdAt,
        Instant updatedAt,
        Instant occurredFrom,
        Instant occurredTo,
        Instant validTo,
        UUID supersededBy,
        Instant expiresAt,
        String embeddingModel,
        String embedding,
        MemorySource source,
        String sourceDetail,
        Trust trust) {}
