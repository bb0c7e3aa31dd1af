package dev.memoir.memory;

import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The default memory strategy ({@code memoir.memory.*}), used by sessions that do not override it. */
@ConfigurationProperties("memoir.memory")
record MemoryProperties(Set<MemoryKind> write, Set<MemoryKind> read, Map<MemoryKind, Integer> topK,
        int reflectionRounds) {

    MemorySettings asSettings() {
        return new MemorySettings(Set.copyOf(write), Set.copyOf(read), Map.copyOf(topK), reflectionRounds);
    }
}
