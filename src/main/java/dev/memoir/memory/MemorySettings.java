package dev.memoir.memory;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.Trust;

/**
 * How a session remembers: the strategy it started from, the kinds it writes and reads, how many memories of
 * each kind retrieval considers, how many self-reflection rounds may search again, and how many tokens of memory
 * a reply prompt may carry, and the least trust of a memory it reads. Fully resolved: every field is set but
 * {@code minTrust}, which is null for any.
 */
@Schema(description = "A session's memory strategy, resolved against the service defaults")
public record MemorySettings(
        @Schema(description = "The preset the kinds came from", example = "multi-view")
        MemoryStrategy strategy,

        @Schema(description = "Memory kinds written from this session")
        Set<MemoryKind> write,

        @Schema(description = "Memory kinds retrieved for this session's replies")
        Set<MemoryKind> read,

        @Schema(description = "Memories retrieved per kind (for memos: the candidates shown to the model)")
        Map<MemoryKind, Integer> topK,

        @Schema(description = "Self-reflection rounds that may search again; 0 turns self-reflection off")
        int reflectionRounds,

        @Schema(description = "Most tokens of memory a reply prompt carries; lower-ranked memories are trimmed")
        int promptTokenBudget,

        @Schema(description = "Whether retrieval goes through the learned reranker (in place of self-reflection)")
        boolean rerank,

        @Schema(
                description = "Whether replies reason step by step over memory (R^3: Search and Finish) instead of "
                        + "retrieving once; a chat request can ask for it too")
        boolean reasoning,

        @Schema(
                description = "How the reply's memory context is chosen: budget (one ranking over every kind read, "
                        + "shown until promptTokenBudget is full; self-reflection orders and adds) or per-kind (the "
                        + "papers' reading: topK of each kind, narrowed by self-reflection or the reranker)",
                example = "budget")
        ContextSelection contextSelection,

        @Schema(
                description = "The least trust a memory needs to reach this session's replies (low, medium, high; "
                        + "docs/trust.md); absent for any",
                example = "medium")
        Trust minTrust) {

    public boolean writes(MemoryKind kind) {
        return write.contains(kind);
    }

    public boolean reads(MemoryKind kind) {
        return read.contains(kind);
    }

    public int topK(MemoryKind kind) {
        return topK.getOrDefault(kind, 0);
    }

    /** These settings with the request's non-null fields laid over them; a strategy resets write and read. */
    public MemorySettings overriddenBy(MemorySettingsOverride override) {
        if (override == null) {
            return this;
        }
        MemoryStrategy chosen = override.strategy() != null ? override.strategy() : strategy;
        Set<MemoryKind> baseKinds = override.strategy() != null ? chosen.kinds() : null;
        Map<MemoryKind, Integer> mergedTopK = new EnumMap<>(MemoryKind.class);
        mergedTopK.putAll(topK);
        if (override.topK() != null) {
            mergedTopK.putAll(override.topK());
        }
        return new MemorySettings(
                chosen,
                override.write() != null ? Set.copyOf(override.write()) : baseKinds != null ? baseKinds : write,
                override.read() != null ? Set.copyOf(override.read()) : baseKinds != null ? baseKinds : read,
                Map.copyOf(mergedTopK),
                override.reflectionRounds() != null ? override.reflectionRounds() : reflectionRounds,
                override.promptTokenBudget() != null ? override.promptTokenBudget() : promptTokenBudget,
                override.rerank() != null ? override.rerank() : override.strategy() != null ? chosen.rerank() : rerank,
                override.reasoning() != null ? override.reasoning() : reasoning,
                override.contextSelection() != null ? override.contextSelection() : contextSelection,
                override.minTrust() != null ? override.minTrust() : minTrust);
    }

    /**
     * The same settings, reading only memories trusted at least so much: the stricter of this minimum and their own
     * (a request can raise a session's minimum, never lower it; null: as they were).
     */
    public MemorySettings trustingAtLeast(Trust minimum) {
        if (minimum == null || minTrust != null && minTrust.atLeast(minimum)) {
            return this;
        }
        return new MemorySettings(
                strategy,
                write,
                read,
                topK,
                reflectionRounds,
                promptTokenBudget,
                rerank,
                reasoning,
                contextSelection,
                minimum);
    }
}
