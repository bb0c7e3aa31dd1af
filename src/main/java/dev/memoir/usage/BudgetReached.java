package dev.memoir.usage;

import java.math.BigDecimal;
import java.time.Instant;

import dev.memoir.tenant.TenantId;

/**
 * A budget's count reached its warning threshold ({@code exhausted} false) or its limit ({@code exhausted} true)
 * in the current period: told once per period of all instances, in the transaction that counted it. {@code userId}
 * is null for the tenant's own budget.
 */
public record BudgetReached(
        TenantId tenant,
        String userId,
        boolean exhausted,
        BudgetPeriod period,
        BudgetPolicy policy,
        Instant renewsAt,
        long usedTokens,
        Long maxTokens,
        BigDecimal usedCost,
        BigDecimal maxCost) {}
