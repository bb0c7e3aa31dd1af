package dev.memoir.usage;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.usage.BudgetExhaustedException;
import dev.memoir.common.usage.UsageScope;
import dev.memoir.jobs.JobHold;
import dev.memoir.llm.ModelCallGate;
import dev.memoir.tenant.TenantId;

/**
 * What a used-up budget stops, decided before each chat-model request and before each run of a tenant's job:
 * background jobs wait under every policy; a client's request goes on, is answered without its optional steps, or is
 * refused, as the strictest policy of the used-up budgets says ({@link BudgetPolicy}).
 *
 * <p>A request that a used-up budget would stop is admitted against the count every instance shares, with its
 * budgets' counts locked for the moment: it is refused once the count reaches the limit; it is let through while
 * the count and the holds of the requests in flight on every instance stay under it, holding the most it can use
 * (its prompt and a whole answer) until it is counted ({@link BudgetCounter}); in between, it waits for the requests
 * in flight to be counted. So only the last request admitted can go past the limit, by at most itself. A request no
 * budget could stop (a reply under {@code defer}) is not held back and only counted.
 */
@Component
class BudgetGate implements ModelCallGate, JobHold {

    private static final Logger log = LoggerFactory.getLogger(BudgetGate.class);

    /** The one step a reply-only budget still lets a client's request make. */
    private static final String REPLY_STEP = "reply";

    /** How long a hold outlives its request's timeout when its instance dies before releasing it. */
    private static final Duration HOLD_MARGIN = Duration.ofMinutes(1);

    /** How often a request waiting for the requests in flight looks at the count again. */
    private static final Duration WAIT_STEP = Duration.ofMillis(50);

    private final BudgetCounter counter;
    private final BudgetStore store;
    private final UsageProperties properties;
    private final TransactionTemplate ownTransaction;
    private final Clock clock = Clock.systemUTC();
    /** Notified when one of this instance's requests is counted and its hold released. */
    private final Object released = new Object();

    BudgetGate(
            BudgetCounter counter,
            BudgetStore store,
            UsageProperties properties,
            PlatformTransactionManager transactions) {
        this.counter = counter;
        this.store = store;
        this.properties = properties;
        this.ownTransaction = new TransactionTemplate(transactions);
        // The counts stay locked only while a request is admitted, never across the request itself.
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public Admission admit(Call call) {
        UsageScope.Attribution who = UsageScope.current().orElse(null);
        if (who == null) {
            return Admission.SENT;
        }
        List<Budget> budgets = counter.applying(who);
        boolean inJob = UsageScope.inJob();
        if (budgets.isEmpty() || !stoppable(budgets, call.step(), inJob)) {
            return Admission.SENT;
        }
        UUID hold = UUID.randomUUID();
        Instant waitUntil = clock.instant().plus(call.mostTime());
        while (true) {
            Optional<Admission> admission =
                    ownTransaction.execute(status -> tryAdmit(budgets, call, inJob, hold, waitUntil));
            if (admission.isPresent()) {
                return admission.get().skipped() ? admission.get() : () -> release(who.tenant(), hold);
            }
            pause();
        }
    }

    /** The request is counted: its hold goes. A hold that cannot be released now expires on its own. */
    private void release(UUID tenant, UUID hold) {
        try {
            ownTransaction.executeWithoutResult(status -> store.release(tenant, hold));
        } catch (RuntimeException e) {
            log.warn("Could not release a budget's hold; it expires on its own: {}", e.toString());
        }
        synchronized (released) {
            released.notifyAll();
        }
    }

    /**
     * Admits the request (holding what it may use), skips or refuses it; empty while the requests in flight may use
     * what is left of a budget, and may not (they are counted, or released, soon): the request waits for them, up to
     * its own timeout.
     */
    private Optional<Admission> tryAdmit(List<Budget> budgets, Call call, boolean inJob, UUID hold, Instant waitUntil) {
        Instant now = clock.instant();
        List<BudgetStore.Locked> locked = store.lockedStandings(budgets, now);
        Admission decided = decide(
                exhausted(locked.stream().map(BudgetStore.Locked::counted).toList()), call, inJob);
        if (decided.skipped()) {
            return Optional.of(decided);
        }
        // Only the budgets that could stop this request are waited for; one the holds use up past the wait is
        // used up for it.
        List<Budget.Standing> heldUp = exhausted(
                        locked.stream().map(BudgetStore.Locked::withHolds).toList())
                .stream()
                .filter(standing -> stoppable(List.of(standing.budget()), call.step(), inJob))
                .toList();
        if (!heldUp.isEmpty()) {
            if (now.isBefore(waitUntil)) {
                return Optional.empty();
            }
            decided = decide(heldUp, call, inJob);
            if (decided.skipped()) {
                return Optional.of(decided);
            }
        }
        BigDecimal cost = properties.cost(call.model(), call.mostPrompt(), call.mostAnswer());
        Instant expires = now.plus(call.mostTime()).plus(HOLD_MARGIN);
        for (Budget budget : budgets) {
            store.hold(hold, budget, now, call.mostPrompt() + call.mostAnswer(), cost, expires);
        }
        return Optional.of(decided);
    }

    /**
     * Waits for a request in flight to be counted: woken at once by one of this instance's, and looking again every
     * {@link #WAIT_STEP} for those of other instances (whose release no signal here tells).
     */
    private void pause() {
        try {
            synchronized (released) {
                released.wait(WAIT_STEP.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a budget's requests in flight", e);
        }
    }

    /**
     * Whether the job should wait, from the budgets as stored now (not as this instance last read them): a budget
     * raised on another instance lets the jobs it brings forward run.
     */
    @Override
    public Optional<Instant> heldUntil(TenantId tenant, UUID sessionId) {
        List<Budget.Standing> exhausted = exhausted(counter.storedStandings(tenant.value(), sessionId));
        return exhausted.isEmpty() ? Optional.empty() : Optional.of(lookAgainAt(renewsAt(exhausted)));
    }

    /** Sends, skips or refuses the request, given the budgets used up for it. */
    private Admission decide(List<Budget.Standing> exhausted, Call call, boolean inJob) {
        if (exhausted.isEmpty()
                || !stoppable(exhausted.stream().map(Budget.Standing::budget).toList(), call.step(), inJob)) {
            return Admission.SENT;
        }
        if (call.optional() && !inJob) {
            return Admission.SKIPPED;
        }
        Instant renewsAt = renewsAt(exhausted);
        Budget.Standing holding = exhausted.stream()
                .filter(standing -> standing.renewsAt().equals(renewsAt))
                .findFirst()
                .orElseThrow();
        throw new BudgetExhaustedException(holding.whose(), renewsAt, lookAgainAt(renewsAt));
    }

    /** Whether one of these budgets, used up, stops the request: a job's always, a client's by the policy. */
    private static boolean stoppable(List<Budget> budgets, String step, boolean inJob) {
        return inJob
                || budgets.stream().anyMatch(budget -> switch (budget.policy()) {
                    case DEFER -> false;
                    case REPLY_ONLY -> !step.equals(REPLY_STEP);
                    case REFUSE -> true;
                });
    }

    private static List<Budget.Standing> exhausted(List<Budget.Standing> standings) {
        return standings.stream().filter(Budget.Standing::exhausted).toList();
    }

    /** When the last of the used-up budgets renews: not before then may the request be made. */
    private static Instant renewsAt(List<Budget.Standing> exhausted) {
        return exhausted.stream()
                .map(Budget.Standing::renewsAt)
                .max(Comparator.naturalOrder())
                .orElseThrow();
    }

    private Instant lookAgainAt(Instant renewsAt) {
        Instant soon = clock.instant().plus(properties.budgetLookAgain());
        return soon.isBefore(renewsAt) ? soon : renewsAt;
    }
}
