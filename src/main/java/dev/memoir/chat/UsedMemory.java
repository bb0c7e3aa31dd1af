package dev.memoir.chat;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.memory.MemoryKind;

@Schema(description = "A memory that was given to the model for this reply")
@JsonInclude(JsonInclude.Include.NON_NULL)
record UsedMemory(
        UUID id,
        @Schema(example = "conditional") MemoryKind kind,

        @Schema(description = "Topic of a memo; absent for other kinds")
        String topic,

        String text,

        @Schema(description = "Cosine similarity to the (possibly extended) query")
        double score,

        @Schema(description = "Whether the reply cited this memory as used")
        boolean cited) {}
