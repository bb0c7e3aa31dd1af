package dev.memoir.usage;

import java.math.BigDecimal;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;

/** A budget to set: a limit in tokens, in estimated cost, or both, per day or month. */
@Schema(description = "A model budget: maxTokens, maxCost or both (whichever is reached first)")
record BudgetSet(
        @Schema(description = "How long the count runs before it starts again: day or month (UTC)", example = "month")
        @NotNull
        BudgetPeriod period,

        @Schema(description = "Chat-model tokens (prompt and completion) per period", example = "2000000")
        @Min(1)
        @Max(FieldConstraints.BUDGET_TOKENS)
        Long maxTokens,

        @Schema(
                description = "Estimated cost per period, in the operator's currency (memoir.usage.currency), from "
                        + "the prices per model (memoir.usage.prices); requests of a model without a price cost "
                        + "nothing by it",
                example = "25.00")
        @DecimalMin(value = "0", inclusive = false)
        @DecimalMax(FieldConstraints.BUDGET_COST)
        BigDecimal maxCost,

        @Schema(
                description = "The part of the budget used at which the budget.warning webhook event is sent and "
                        + "the Memoir-Budget header says warning; by default 0.8",
                example = "0.8")
        @DecimalMin("0.01")
        @DecimalMax("1")
        Double warnAt,

        @Schema(
                description = "What the budget stops once used up: defer (by default: only background memory jobs "
                        + "wait), reply-only (also no self-reflection or memo selection in replies) or refuse "
                        + "(every request that would call the chat model answers 429 budget-exhausted)",
                example = "defer")
        BudgetPolicy policy) {

    static final double DEFAULT_WARN_AT = 0.8;
}
