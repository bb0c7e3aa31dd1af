package dev.memoir.memory.api;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** One of a memory's earlier versions, as archived. */
public record ArchivedRevision(
        UUID id,
        UUID memoryId,
        int version,
        String text,
        UUID sessionId,
        String reason,
        Instant createdAt,
        String absorbedText,
        List<UUID> absorbedTurnIds) {}
