package dev.memoir.memory;

import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The default memory strategy ({@code memoir.memory.*}), used by sessions that do not override it.
 *
 * @param strategy          preset naming the kinds written and read
 * @param topK              memories retrieved per kind
 * @param reflectionRounds  self-reflection rounds that may search again (0 turns it off)
 * @param promptTokenBudget most tokens of memory in a reply prompt
 */
@ConfigurationProperties("memoir.memory")
record MemoryProperties(@DefaultValue("multi-view") MemoryStrategy strategy, Map<MemoryKind, Integer> topK,
        @DefaultValue("1") int reflectionRounds, @DefaultValue("3000") int promptTokenBudget) {

    MemorySettings asSettings() {
        return new MemorySettings(strategy, strategy.kinds(), strategy.kinds(), Map.copyOf(topK), reflectionRounds,
                promptTokenBudget, strategy.rerank(), false);
    }
}
