package dev.memoir.usage;

import java.math.BigDecimal;
import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A budget and what is used of it in the current period. */
@Schema(description = "A model budget and what is used of it in the current period")
@JsonInclude(JsonInclude.Include.NON_NULL)
record BudgetView(
        @Schema(description = "The user the budget is for; absent for the tenant's own budget")
        String userId,

        BudgetPeriod period,
        Long maxTokens,
        BigDecimal maxCost,

        @Schema(description = "The currency of maxCost and usedCost", example = "USD")
        String currency,

        double warnAt,
        BudgetPolicy policy,

        @Schema(description = "Chat-model tokens counted this period")
        long usedTokens,

        @Schema(description = "Estimated cost counted this period (an estimate, not a bill)")
        BigDecimal usedCost,

        @Schema(description = "ok, warning (warnAt reached) or exhausted (the limit reached)", example = "ok")
        String state,

        Instant periodStart,

        @Schema(description = "When the period ends and the count starts again")
        Instant renewsAt,

        Instant updatedAt) {

    static BudgetView of(Budget.Standing standing, String currency) {
        Budget budget = standing.budget();
        return new BudgetView(
                budget.ofTenant() ? null : budget.userId(),
                budget.period(),
                budget.maxTokens(),
                budget.maxCost(),
                currency,
                budget.warnAt(),
                budget.policy(),
                standing.tokens(),
                standing.cost().stripTrailingZeros(),
                standing.exhausted() ? "exhausted" : standing.warning() ? "warning" : "ok",
                standing.periodStart(),
                standing.renewsAt(),
                budget.updatedAt());
    }
}
