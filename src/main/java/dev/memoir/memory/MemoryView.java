package dev.memoir.memory;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A stored memory")
public record MemoryView(
        UUID id,
        @Schema(description = "Memory form", example = "conditional") MemoryKind kind,
        String text,
        @Schema(description = "Cosine similarity to the query (1 is identical); null when listing without a query")
        Double score,
        Provenance provenance,
        Instant createdAt,
        Instant updatedAt) {
}
