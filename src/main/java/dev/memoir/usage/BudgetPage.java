package dev.memoir.usage;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The tenant's budget, set by the operator, and a page of the budgets it set for its users. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record BudgetPage(
        @Schema(description = "The tenant's own budget; absent when the operator set none")
        BudgetView tenant,

        @Schema(description = "User budgets, by user id") List<BudgetView> users,

        @Schema(description = "The cursor of the next page of user budgets; absent on the last page")
        String nextCursor) {}
