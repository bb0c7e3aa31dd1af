package dev.memoir.usage;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.usage.UsageScope;
import dev.memoir.llm.ModelUsage;
import dev.memoir.tenant.TenantId;

/**
 * Adds each chat-model request to the counts of the budgets that apply to it, in the database that every instance
 * shares, right after the request (before the next is admitted), and tells when a count reaches a budget's warning
 * threshold or its limit ({@link BudgetReached}). Keeps the tenant's standing as this instance last saw it, for the
 * {@code Memoir-Budget} response header.
 */
@Component
class BudgetCounter {

    private static final Logger log = LoggerFactory.getLogger(BudgetCounter.class);

    private final BudgetBook book;
    private final BudgetStore store;
    private final UsageProperties properties;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate ownTransaction;
    private final Clock clock = Clock.systemUTC();
    private final Map<UUID, Budget.Standing> lastSeen = new ConcurrentHashMap<>();

    BudgetCounter(
            BudgetBook book,
            BudgetStore store,
            UsageProperties properties,
            ApplicationEventPublisher events,
            PlatformTransactionManager transactions) {
        this.book = book;
        this.store = store;
        this.properties = properties;
        this.events = events;
        this.ownTransaction = new TransactionTemplate(transactions);
        // Counted whatever the transaction the request was made in does: it was made, and paid for.
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** The budgets that apply to a request made now for {@code who}. */
    List<Budget> applying(UsageScope.Attribution who) {
        return book.applying(who.tenant(), userOf(who));
    }

    /** The budgets that apply to the request made now for {@code who}, with their counts. */
    List<Budget.Standing> standings(UsageScope.Attribution who) {
        List<Budget> budgets = applying(who);
        if (budgets.isEmpty()) {
            return List.of();
        }
        List<Budget.Standing> standings = store.standings(budgets, clock.instant());
        seen(standings);
        return standings;
    }

    /** The budgets of the tenant and of the session's user as stored now, with their counts: for a job's run. */
    List<Budget.Standing> storedStandings(UUID tenant, UUID sessionId) {
        String userId = sessionId == null
                ? null
                : store.userOfSession(tenant, sessionId).orElse(null);
        List<Budget> budgets = store.applying(tenant, userId);
        return budgets.isEmpty() ? List.of() : store.standings(budgets, clock.instant());
    }

    /** Adds a request of the chat model to the counts of the budgets that apply to it. */
    void count(UsageScope.Attribution who, ModelUsage usage) {
        if (usage.kind() != ModelUsage.Kind.CHAT || usage.failed()) {
            return;
        }
        List<Budget> budgets = book.applying(who.tenant(), userOf(who));
        if (budgets.isEmpty()) {
            return;
        }
        long tokens = usage.promptTokens() + usage.completionTokens();
        BigDecimal cost = properties.cost(usage.model(), usage.promptTokens(), usage.completionTokens());
        Instant now = clock.instant();
        List<BudgetReached> reached = new ArrayList<>();
        ownTransaction.executeWithoutResult(status -> {
            for (Budget budget : budgets) {
                BudgetStore.Added added = store.add(budget, now, tokens, cost);
                seen(List.of(added.standing()));
                if (added.firstWarning()) {
                    reached.add(reached(added.standing(), false));
                }
                if (added.firstExhausted()) {
                    reached.add(reached(added.standing(), true));
                }
            }
        });
        // Told after the count is committed: a webhook that cannot be queued loses the event, never the count.
        for (BudgetReached event : reached) {
            try {
                ownTransaction.executeWithoutResult(status -> events.publishEvent(event));
            } catch (RuntimeException e) {
                log.warn("Could not tell that a budget of tenant {} was reached: {}", event.tenant(), e.toString());
            }
        }
    }

    /**
     * The tenant's own budget as this instance last saw its count, while its period lasts and the budget is the one
     * this instance reads now (not removed or changed on another instance since).
     */
    Optional<Budget.Standing> lastSeen(UUID tenant) {
        Budget.Standing standing = lastSeen.get(tenant);
        if (standing == null) {
            return Optional.empty();
        }
        boolean current = standing.renewsAt().isAfter(clock.instant())
                && book.applying(tenant, null).stream()
                        .anyMatch(budget -> budget.ofTenant()
                                && budget.updatedAt().equals(standing.budget().updatedAt()));
        if (!current) {
            lastSeen.remove(tenant, standing);
            return Optional.empty();
        }
        return Optional.of(standing);
    }

    /** Forgets what was seen of the tenant's budgets: they were changed. */
    void changed(UUID tenant) {
        lastSeen.remove(tenant);
    }

    private void seen(List<Budget.Standing> standings) {
        standings.stream()
                .filter(standing -> standing.budget().ofTenant())
                .forEach(standing -> lastSeen.put(standing.budget().tenant(), standing));
    }

    /** The request's user: its own, or its session's when a job works for a session (read only when needed). */
    private String userOf(UsageScope.Attribution who) {
        if (who.userId() != null || who.sessionId() == null || !book.hasUserBudgets(who.tenant())) {
            return who.userId();
        }
        return store.userOfSession(who.tenant(), who.sessionId()).orElse(null);
    }

    private static BudgetReached reached(Budget.Standing standing, boolean exhausted) {
        Budget budget = standing.budget();
        return new BudgetReached(
                new TenantId(budget.tenant()),
                budget.ofTenant() ? null : budget.userId(),
                exhausted,
                budget.period(),
                budget.policy(),
                standing.renewsAt(),
                standing.tokens(),
                budget.maxTokens(),
                standing.cost(),
                budget.maxCost());
    }
}
