package dev.memoir.chat.turn;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySource;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.Trust;

@Schema(description = "A memory that was given to the model for this reply")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UsedMemory(
        UUID id,
        @Schema(example = "conditional") MemoryKind kind,

        @Schema(description = "Topic of a memo; absent for other kinds")
        String topic,

        String text,

        @Schema(description = "Cosine similarity to the (possibly extended) query")
        double score,

        @Schema(description = "Whether the reply cited this memory as used")
        boolean cited,

        @Schema(
                description = "Where it came from: user-turn, assistant-turn, import, client, mcp, feedback, archive, "
                        + "derived or unrecorded (docs/trust.md)",
                example = "user-turn")
        MemorySource source,

        @Schema(description = "How far it is trusted: low, medium or high", example = "high")
        Trust trust) {

    static UsedMemory of(ScoredMemory memory, boolean cited) {
        return new UsedMemory(
                memory.id(),
                memory.kind(),
                memory.topic(),
                memory.text(),
                memory.score(),
                cited,
                memory.provenance() == null ? null : memory.provenance().source(),
                memory.provenance() == null ? null : memory.provenance().trust());
    }
}
