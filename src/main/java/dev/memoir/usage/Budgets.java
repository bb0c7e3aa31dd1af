package dev.memoir.usage;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.memoir.common.web.Cursor;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.jobs.Jobs;
import dev.memoir.tenant.TenantId;

/**
 * Setting, reading and removing budgets: the tenant's by the operator, a user's by the tenant. A budget set or
 * raised brings the tenant's deferred jobs forward to look again, on whichever instance runs them.
 */
@Service
class Budgets {

    private static final String USERS_LIST = "budgets";

    private final BudgetStore store;
    private final BudgetBook book;
    private final BudgetCounter counter;
    private final UsageProperties properties;
    private final Jobs jobs;
    private final Clock clock = Clock.systemUTC();

    Budgets(BudgetStore store, BudgetBook book, BudgetCounter counter, UsageProperties properties, Jobs jobs) {
        this.store = store;
        this.book = book;
        this.counter = counter;
        this.properties = properties;
        this.jobs = jobs;
    }

    /** Sets the tenant's budget ({@code userId} empty) or a user's, keeping the count of the current period. */
    @Transactional
    BudgetView set(TenantId tenant, String userId, BudgetSet request) {
        if (request.maxTokens() == null && request.maxCost() == null) {
            throw new InvalidRequestException("maxTokens", "give maxTokens, maxCost or both");
        }
        Instant now = clock.instant();
        Budget budget = new Budget(
                tenant.value(),
                userId,
                request.period(),
                request.maxTokens(),
                request.maxCost(),
                request.warnAt() == null ? BudgetSet.DEFAULT_WARN_AT : request.warnAt(),
                request.policy() == null ? BudgetPolicy.DEFER : request.policy(),
                now);
        store.put(budget);
        store.startCount(budget, budget.period().start(now), properties);
        changed(tenant);
        return view(budget, now);
    }

    @Transactional(readOnly = true)
    BudgetView get(TenantId tenant, String userId) {
        Budget budget = store.find(tenant.value(), userId).orElseThrow(() -> notFound(userId));
        return view(budget, clock.instant());
    }

    @Transactional
    void delete(TenantId tenant, String userId) {
        if (!store.delete(tenant.value(), userId)) {
            throw notFound(userId);
        }
        changed(tenant);
    }

    /** The tenant's budget and a page of its user budgets. */
    @Transactional(readOnly = true)
    BudgetPage list(TenantId tenant, String cursor, int limit) {
        Cursor after = Cursor.decode(cursor, USERS_LIST, 1);
        Instant now = clock.instant();
        Optional<BudgetView> own = after == null
                ? store.find(tenant.value(), Budget.TENANT).map(budget -> view(budget, now))
                : Optional.empty();
        List<Budget> users = store.usersOf(tenant.value(), after == null ? null : after.text(0), limit + 1);
        Cursor.Page<Budget> page = Cursor.page(users, limit, budget -> Cursor.encode(USERS_LIST, budget.userId()));
        return new BudgetPage(
                own.orElse(null),
                page.items().stream().map(budget -> view(budget, now)).toList(),
                page.nextCursor());
    }

    private void changed(TenantId tenant) {
        book.changed(tenant.value());
        counter.changed(tenant.value());
        jobs.resumeHeld(tenant);
        // A request meanwhile may have read the budget as it was before this transaction: forget it again once the
        // change is committed.
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                book.changed(tenant.value());
                counter.changed(tenant.value());
            }
        });
    }

    private BudgetView view(Budget budget, Instant now) {
        return BudgetView.of(store.standings(List.of(budget), now).getFirst(), properties.currency());
    }

    private static NotFoundException notFound(String userId) {
        return userId.isEmpty()
                ? new NotFoundException("Budget", "of the tenant")
                : new NotFoundException("Budget of user", userId);
    }
}
