package dev.memoir.chat;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.memory.MemoryKind;

@Schema(description = "A memory that was given to the model for this reply")
record UsedMemory(UUID id, @Schema(example = "conditional") MemoryKind kind, String text,
        @Schema(description = "Cosine similarity to the (possibly extended) query") double score) {
}
