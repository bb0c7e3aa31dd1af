package dev.memoir.memory.revision;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "One version of a memory's text")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryRevisionView(
        @Schema(description = "Version number, from 1") int version,
        String text,

        @Schema(description = "The session whose processing produced this version, if any")
        UUID sessionId,

        @Schema(
                description = "Why this version was made: created, edit, recursive-summary, merge, reflection",
                example = "merge")
        String reason,

        @Schema(description = "For a merge: the summary merged in and the turns it rested on")
        Absorbed absorbed,

        Instant createdAt) {

    public record Absorbed(String text, List<UUID> turnIds) {}
}
