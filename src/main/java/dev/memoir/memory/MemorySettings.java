package dev.memoir.memory;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * How a session remembers: the kinds it writes and reads, how many memories of each kind retrieval returns, and
 * how many self-reflection rounds may search again. Fully resolved: every field is set.
 */
@Schema(description = "A session's memory strategy, resolved against the service defaults")
public record MemorySettings(
        @Schema(description = "Memory kinds written from this session") Set<MemoryKind> write,
        @Schema(description = "Memory kinds retrieved for this session's replies") Set<MemoryKind> read,
        @Schema(description = "Memories retrieved per kind") Map<MemoryKind, Integer> topK,
        @Schema(description = "Self-reflection rounds that may search again; 0 turns self-reflection off")
        int reflectionRounds) {

    public boolean writes(MemoryKind kind) {
        return write.contains(kind);
    }

    public int topK(MemoryKind kind) {
        return topK.getOrDefault(kind, 0);
    }

    /** This settings with the request's non-null fields laid over it. */
    public MemorySettings overriddenBy(MemorySettingsOverride override) {
        if (override == null) {
            return this;
        }
        Map<MemoryKind, Integer> mergedTopK = new EnumMap<>(MemoryKind.class);
        mergedTopK.putAll(topK);
        if (override.topK() != null) {
            mergedTopK.putAll(override.topK());
        }
        return new MemorySettings(
                override.write() != null ? Set.copyOf(override.write()) : write,
                override.read() != null ? Set.copyOf(override.read()) : read,
                Map.copyOf(mergedTopK),
                override.reflectionRounds() != null ? override.reflectionRounds() : reflectionRounds);
    }
}
