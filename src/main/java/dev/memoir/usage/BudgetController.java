package dev.memoir.usage;

import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.tenant.OperatorAccess;
import dev.memoir.tenant.TenantDirectory;
import dev.memoir.tenant.TenantId;

@RestController
@Tag(name = "Usage")
class BudgetController {

    private static final String POLICIES = " Once used up, background memory jobs wait (deferred) under every policy; "
            + "the policy says what else stops: defer (nothing else), reply-only (replies without self-reflection or "
            + "memo selection) or refuse (requests that would call the chat model answer 429 budget-exhausted, "
            + "with renewsAt). Searches, reads, exports and erasure are never stopped. A budget set in the middle of "
            + "a period starts from the usage already recorded in it; a change applies on other instances within "
            + "memoir.usage.budget-refresh, and deferred jobs look again at once.";

    private final Budgets budgets;
    private final TenantDirectory tenants;

    BudgetController(Budgets budgets, TenantDirectory tenants) {
        this.budgets = budgets;
        this.tenants = tenants;
    }

    @PutMapping("/admin/tenants/{tenantId}/budget")
    @Tag(name = "Admin")
    @Operation(
            summary = "Set a tenant's model budget",
            description = "Chat-model tokens, estimated cost or both, per day or month (UTC)." + POLICIES,
            responses = {
                @ApiResponse(responseCode = "200", description = "The budget and what is used of it"),
                @ApiResponse(responseCode = "400", description = "Neither maxTokens nor maxCost, or a bad value"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant")
            })
    BudgetView setTenantBudget(
            OperatorAccess operator, @PathVariable UUID tenantId, @Valid @RequestBody BudgetSet request) {
        return budgets.set(existing(tenantId), Budget.TENANT, request);
    }

    @GetMapping("/admin/tenants/{tenantId}/budget")
    @Tag(name = "Admin")
    @Operation(
            summary = "A tenant's model budget and what is used of it",
            responses = {
                @ApiResponse(responseCode = "200", description = "The budget"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant, or it has no budget")
            })
    BudgetView tenantBudget(OperatorAccess operator, @PathVariable UUID tenantId) {
        return budgets.get(existing(tenantId), Budget.TENANT);
    }

    @DeleteMapping("/admin/tenants/{tenantId}/budget")
    @Tag(name = "Admin")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(
            summary = "Remove a tenant's model budget; its deferred jobs run",
            responses = {
                @ApiResponse(responseCode = "204", description = "Removed"),
                @ApiResponse(responseCode = "401", description = "Missing or wrong bootstrap key"),
                @ApiResponse(responseCode = "404", description = "No such tenant, or it has no budget")
            })
    void deleteTenantBudget(OperatorAccess operator, @PathVariable UUID tenantId) {
        budgets.delete(existing(tenantId), Budget.TENANT);
    }

    @GetMapping("/usage/budgets")
    @Operation(
            summary = "The tenant's model budget (set by the operator) and the budgets it set for its users",
            responses = {
                @ApiResponse(responseCode = "200", description = "The budgets and what is used of them"),
                @ApiResponse(responseCode = "400", description = "Invalid limit or cursor")
            })
    BudgetPage list(
            TenantId tenant,
            @Parameter(description = "nextCursor of the previous page; omit for the first page")
                    @RequestParam(required = false)
                    String cursor,
            @Parameter(description = "User budgets per page, 1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit) {
        return budgets.list(tenant, cursor, limit);
    }

    @PutMapping("/usage/budgets/users/{userId}")
    @Operation(
            summary = "Set a user's model budget",
            description = "Applies besides the tenant's own budget: a request of the user is stopped by whichever is "
                    + "used up (the stricter policy when both are)." + POLICIES,
            responses = {
                @ApiResponse(responseCode = "200", description = "The budget and what is used of it"),
                @ApiResponse(responseCode = "400", description = "Neither maxTokens nor maxCost, or a bad value")
            })
    BudgetView setUserBudget(
            TenantId tenant,
            @Parameter(description = "The user") @PathVariable @UserIdentifier String userId,
            @Valid @RequestBody BudgetSet request) {
        return budgets.set(tenant, userId, request);
    }

    @GetMapping("/usage/budgets/users/{userId}")
    @Operation(
            summary = "A user's model budget and what is used of it",
            responses = {
                @ApiResponse(responseCode = "200", description = "The budget"),
                @ApiResponse(responseCode = "404", description = "No budget is set for the user")
            })
    BudgetView userBudget(TenantId tenant, @PathVariable @UserIdentifier String userId) {
        return budgets.get(tenant, userId);
    }

    @DeleteMapping("/usage/budgets/users/{userId}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(
            summary = "Remove a user's model budget",
            responses = {
                @ApiResponse(responseCode = "204", description = "Removed"),
                @ApiResponse(responseCode = "404", description = "No budget is set for the user")
            })
    void deleteUserBudget(TenantId tenant, @PathVariable @UserIdentifier String userId) {
        budgets.delete(tenant, userId);
    }

    private TenantId existing(UUID tenantId) {
        if (!tenants.exists(tenantId)) {
            throw new NotFoundException("Tenant", tenantId);
        }
        return new TenantId(tenantId);
    }
}
