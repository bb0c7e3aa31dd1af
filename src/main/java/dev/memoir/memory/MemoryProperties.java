package dev.memoir.memory;

import java.util.EnumMap;
import java.util.Map;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.Trust;

/**
 * The default memory strategy ({@code memoir.memory.*}), used by sessions that do not override it.
 *
 * @param strategy          preset naming the kinds written and read
 * @param topK              memories retrieved per kind; a kind not configured keeps its default (history 3,
 *                          conditional 3, summary 1, topic 3, reflected 3, fact 3, memo 5), so that setting one
 *                          kind, or none, never leaves another without a value
 * @param reflectionRounds  self-reflection rounds that may search again (0 turns it off)
 * @param promptTokenBudget most tokens of memory in a reply prompt
 * @param contextSelection  how a reply's memory context is chosen: {@code budget} fills the budget from one ranking
 *                          over every kind read; {@code per-kind} is the papers' top K per kind, pruned by
 *                          self-reflection
 * @param minTrust          the least trust of a memory a session's replies read unless it says otherwise; null (the
 *                          default) for any (docs/trust.md)
 */
@Validated
@ConfigurationProperties("memoir.memory")
record MemoryProperties(
        @DefaultValue("multi-view") @NotNull MemoryStrategy strategy,
        Map<MemoryKind, @Min(0) @Max(FieldConstraints.TOP_K) Integer> topK,

        @DefaultValue("1") @Min(0) @Max(FieldConstraints.REFLECTION_ROUNDS)
        int reflectionRounds,

        @DefaultValue("2000")
        @Min(FieldConstraints.PROMPT_TOKEN_BUDGET_MIN)
        @Max(FieldConstraints.PROMPT_TOKEN_BUDGET_MAX)
        int promptTokenBudget,

        @DefaultValue("budget") @NotNull ContextSelection contextSelection,
        Trust minTrust) {

    static final Map<MemoryKind, Integer> DEFAULT_TOP_K = Map.of(
            MemoryKind.HISTORY,
            3,
            MemoryKind.CONDITIONAL,
            3,
            MemoryKind.SUMMARY,
            1,
            MemoryKind.TOPIC,
            3,
            MemoryKind.REFLECTED,
            3,
            MemoryKind.FACT,
            3,
            MemoryKind.MEMO,
            5);

    MemoryProperties {
        Map<MemoryKind, Integer> merged = new EnumMap<>(DEFAULT_TOP_K);
        if (topK != null) {
            merged.putAll(topK);
        }
        topK = Map.copyOf(merged);
    }

    MemorySettings asSettings() {
        return new MemorySettings(
                strategy,
                strategy.kinds(),
                strategy.kinds(),
                topK,
                reflectionRounds,
                promptTokenBudget,
                strategy.rerank(),
                false,
                contextSelection,
                minTrust);
    }
}
