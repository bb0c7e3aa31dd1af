package dev.memoir.memory;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One version of a memory's text")
public record MemoryRevisionView(
        @Schema(description = "Version number, from 1") int version,
        String text,
        @Schema(description = "The session whose processing produced this version, if any") UUID sessionId,
        @Schema(description = "Why this version was made", example = "recursive-summary") String reason,
        Instant createdAt) {
}
