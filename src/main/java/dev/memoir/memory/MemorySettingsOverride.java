package dev.memoir.memory;

import java.util.Map;
import java.util.Set;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.Trust;

/** Per-session changes to the default memory strategy; every field is optional. */
@Schema(description = "Overrides of the default memory strategy for one session; omitted fields keep the default")
public record MemorySettingsOverride(
        @Schema(
                description = "A preset naming the kinds written and read: conditional, conditional+summary, "
                        + "multi-view, memochat, recursive, rmm or all",
                example = "multi-view")
        MemoryStrategy strategy,

        @Schema(description = "Kinds to write, replacing the strategy's", example = "[\"history\", \"memo\"]")
        Set<@NotNull MemoryKind> write,

        @Schema(description = "Kinds to read, replacing the strategy's", example = "[\"memo\"]")
        Set<@NotNull MemoryKind> read,

        @Schema(description = "Memories retrieved per kind, 0 to 20", example = "{\"conditional\": 5}")
        Map<@NotNull MemoryKind, @NotNull @Min(0) @Max(FieldConstraints.TOP_K) Integer> topK,

        @Schema(description = "Self-reflection rounds, 0 to 5; 0 turns self-reflection off", example = "1")
        @Min(0)
        @Max(FieldConstraints.REFLECTION_ROUNDS)
        Integer reflectionRounds,

        @Schema(description = "Most tokens of memory in a reply prompt, 100 to 100000", example = "3000")
        @Min(FieldConstraints.PROMPT_TOKEN_BUDGET_MIN)
        @Max(FieldConstraints.PROMPT_TOKEN_BUDGET_MAX)
        Integer promptTokenBudget,

        @Schema(
                description = "Rank retrieval's candidates with the learned reranker instead of self-reflection",
                example = "false")
        Boolean rerank,

        @Schema(
                description = "Answer by recursive reasoning over memory (R^3) for multi-hop questions",
                example = "false")
        Boolean reasoning,

        @Schema(
                description = "How the reply's memory context is chosen: budget (default: one ranking over every "
                        + "kind read, filled to promptTokenBudget) or per-kind (the papers' top K per kind, pruned by "
                        + "self-reflection)",
                example = "budget")
        ContextSelection contextSelection,

        @Schema(
                description = "The least trust a memory needs to reach the replies: low, medium or high "
                        + "(docs/trust.md); omitted, any",
                example = "medium")
        Trust minTrust) {}
