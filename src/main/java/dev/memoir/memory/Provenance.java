package dev.memoir.memory;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Where a memory came from: the session and the turns it was written from")
public record Provenance(
        @Schema(description = "Session the memory was written from; null for memories without one")
        UUID sessionId,

        @Schema(description = "Turns the memory rests on, in dialogue order")
        List<UUID> turnIds) {}
