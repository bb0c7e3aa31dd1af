package dev.memoir.session;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.tenant.TenantId;

/**
 * The one shape of a memory write made from a session, in three phases:
 * <ol>
 * <li>read what to write from (the session and its turns), with no transaction held;</li>
 * <li>decide what to write: the writer's prompts and model calls, still with no transaction or lock held, since a
 * slow model can take minutes;</li>
 * <li>store it in one transaction that first holds the session against erasure: an erasure that got there first
 * wins and nothing is stored, one that comes later waits for the transaction and deletes what it stored.</li>
 * </ol>
 * A background job that fails in any phase stores nothing and is retried; what a writer stores must therefore
 * be idempotent (a dedup key, a progress row), which stays the writer's business.
 */
@Component
public class SessionMemoryWrite {

    private final SessionService sessions;
    private final SessionLocks locks;
    private final TransactionTemplate transaction;

    SessionMemoryWrite(SessionService sessions, SessionLocks locks, TransactionTemplate transaction) {
        this.sessions = sessions;
        this.locks = locks;
        this.transaction = transaction;
    }

    /** The session a memory is written from and the turns it is written from. */
    public record SessionDialogue(SessionRef session, List<TurnView> turns) {}

    /**
     * Holds a session for the store phase's transaction, so that erasing it waits until what is stored is
     * committed (and then erases that too).
     */
    @FunctionalInterface
    public interface Hold {

        /**
         * Holds the tenant's session and answers whether it still exists; nothing may be stored for it when it does
         * not.
         */
        boolean session(TenantId tenant, UUID sessionId);
    }

    /** The store phase: stores what was decided, in one transaction, taking the hold where the writer needs it. */
    @FunctionalInterface
    public interface Store<S, D, R> {

        R store(S source, D decided, Hold hold);
    }

    /**
     * Phase 1 for a session of the tenant: the session, if it still exists, and its turns read by {@code turns};
     * empty when the session is gone or the turns are.
     */
    public Optional<SessionDialogue> read(TenantId tenant, UUID sessionId, Supplier<List<TurnView>> turns) {
        Optional<SessionRef> session = sessions.findForJob(tenant, sessionId);
        List<TurnView> read = turns.get();
        return session.isEmpty() || read.isEmpty()
                ? Optional.empty()
                : Optional.of(new SessionDialogue(session.get(), read));
    }

    /**
     * A write from a session's dialogue: {@code decide} asks the model what to write (empty: nothing worth storing,
     * and no transaction is opened), {@code store} stores it if the session is still there.
     */
    public <D> void write(
            Optional<SessionDialogue> dialogue,
            Function<SessionDialogue, Optional<D>> decide,
            BiConsumer<SessionDialogue, D> store) {
        dialogue.ifPresent(read -> decide.apply(read)
                .ifPresent(decided -> transaction.executeWithoutResult(status -> {
                    if (locks.holdForMemoryWrite(
                            read.session().tenant(), read.session().id())) {
                        store.accept(read, decided);
                    }
                })));
    }

    /**
     * Phases 2 and 3 for a writer that reads in its own way or must check more before it stores (a lock of its
     * own, a state that may have moved on while the model was asked): {@code decide} runs with no transaction
     * held, then {@code store} runs in one transaction and answers the write's result.
     */
    public <S, D, R> R write(S source, Function<S, D> decide, Store<S, D, R> store) {
        D decided = decide.apply(source);
        return transaction.execute(status -> store.store(source, decided, locks::holdForMemoryWrite));
    }
}
