package dev.memoir.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * The budgets as this instance last read them, so that a model request of a tenant without one costs no database
 * read: each tenant's (and each user's) entry is read again after {@code memoir.usage.budget-refresh}, and at once
 * when the budget is changed through this instance. Only the budgets are kept here: the counts are read fresh from
 * the database on every request that a budget applies to.
 */
@Component
class BudgetBook {

    /** Beyond this many users' entries the users' part is emptied (a tenant with a budget per user per request). */
    private static final int MOST_USERS = 100_000;

    private record Read<T>(T value, long at) {}

    private record TenantEntry(Optional<Budget> budget, boolean anyUserBudget) {}

    private record UserKey(UUID tenant, String userId) {}

    private final BudgetStore store;
    private final long refreshNanos;
    private final Map<UUID, Read<TenantEntry>> tenants = new ConcurrentHashMap<>();
    private final Map<UserKey, Read<Optional<Budget>>> users = new ConcurrentHashMap<>();

    BudgetBook(BudgetStore store, UsageProperties properties) {
        this.store = store;
        this.refreshNanos = properties.budgetRefresh().toNanos();
    }

    /** The budgets that apply to a request for the tenant and the user (null when of no one user): 0, 1 or 2. */
    List<Budget> applying(UUID tenant, String userId) {
        TenantEntry entry = tenant(tenant);
        List<Budget> budgets = new ArrayList<>(2);
        entry.budget().ifPresent(budgets::add);
        if (entry.anyUserBudget() && userId != null) {
            user(tenant, userId).ifPresent(budgets::add);
        }
        return budgets;
    }

    /** Whether any budget of the tenant is per user, so that a request's user must be known to check it. */
    boolean hasUserBudgets(UUID tenant) {
        return tenant(tenant).anyUserBudget();
    }

    /** Forgets what was read of the tenant's budgets: they were changed. */
    void changed(UUID tenant) {
        tenants.remove(tenant);
        users.keySet().removeIf(key -> key.tenant().equals(tenant));
    }

    private TenantEntry tenant(UUID tenant) {
        long now = System.nanoTime();
        Read<TenantEntry> read = tenants.get(tenant);
        if (read == null || now - read.at() > refreshNanos) {
            List<Budget> all = store.ofTenantAndAnyUser(tenant);
            read = new Read<>(
                    new TenantEntry(
                            all.stream().filter(Budget::ofTenant).findFirst(),
                            all.stream().anyMatch(budget -> !budget.ofTenant())),
                    now);
            tenants.put(tenant, read);
        }
        return read.value();
    }

    private Optional<Budget> user(UUID tenant, String userId) {
        long now = System.nanoTime();
        UserKey key = new UserKey(tenant, userId);
        Read<Optional<Budget>> read = users.get(key);
        if (read == null || now - read.at() > refreshNanos) {
            if (users.size() >= MOST_USERS) {
                users.clear();
            }
            read = new Read<>(store.find(tenant, userId), now);
            users.put(key, read);
        }
        return read.value();
    }
}
