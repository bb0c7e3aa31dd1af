package dev.memoir.usage;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * A limit on what a tenant, or one of its users, may spend on the chat model in a period: tokens (prompt and
 * completion), an estimated cost from the operator's prices, or both (whichever is reached first). {@code userId} is
 * empty for the tenant's own budget.
 */
record Budget(
        UUID tenant,
        String userId,
        BudgetPeriod period,
        Long maxTokens,
        BigDecimal maxCost,
        double warnAt,
        BudgetPolicy policy,
        Instant updatedAt) {

    static final String TENANT = "";

    boolean ofTenant() {
        return userId.isEmpty();
    }

    /** What is used of it in the current period, and when that period ends. */
    record Standing(Budget budget, Instant periodStart, long tokens, BigDecimal cost) {

        Instant renewsAt() {
            return budget.period().end(periodStart);
        }

        /** The larger of the parts used of each limit. */
        double used() {
            double byTokens = budget.maxTokens() == null ? 0 : (double) tokens / budget.maxTokens();
            double byCost = budget.maxCost() == null
                    ? 0
                    : cost.doubleValue() / budget.maxCost().doubleValue();
            return Math.max(byTokens, byCost);
        }

        boolean exhausted() {
            return used() >= 1.0;
        }

        boolean warning() {
            return used() >= budget.warnAt();
        }

        String whose() {
            return budget.ofTenant() ? "tenant's" : "user's";
        }
    }
}
