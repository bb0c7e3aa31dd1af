package dev.memoir.session;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.jobs.Jobs;
import dev.memoir.session.api.ErasedSessions;
import dev.memoir.session.api.SessionForDeletion;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.tenant.TenantId;

/**
 * Deletes sessions and their turns for an erasure, in the erasure's transaction, and forgets the outcomes of their
 * memory jobs with them.
 */
@Component
public class SessionDeletion {

    private final SessionRepository sessions;
    private final TurnRepository turns;
    private final SessionLocks locks;
    private final Jobs jobs;

    SessionDeletion(SessionRepository sessions, TurnRepository turns, SessionLocks locks, Jobs jobs) {
        this.sessions = sessions;
        this.turns = turns;
        this.locks = locks;
        this.jobs = jobs;
    }

    /**
     * Locks one session for deletion and answers its user and its turns' ids, or 404. The lock waits for a memory
     * job that holds the session, so that what it writes is committed first, then seen and deleted with the session.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public SessionForDeletion lockForDeletion(TenantId tenant, UUID id) {
        Session session = locks.lockedWithUser(tenant, id);
        return new SessionForDeletion(session.getUserId(), turns.idsOfSession(tenant.value(), id));
    }

    /** Deletes a session locked by {@link #lockForDeletion} and its turns; answers how many turns went. */
    @Transactional(propagation = Propagation.MANDATORY)
    public int delete(TenantId tenant, UUID id) {
        int turnCount = turns.deleteAllOfSession(tenant.value(), id);
        jobs.forgetSessions(List.of(id));
        sessions.deleteByIdAndTenantId(id, tenant.value());
        return turnCount;
    }

    /**
     * Removes every session and turn of a user; the caller holds the user's lock exclusively, so no writer of the
     * user is in flight, and none comes before the erasure commits.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public ErasedSessions deleteAllForUser(TenantId tenant, String userId) {
        int turnCount = turns.deleteAllForUser(tenant.value(), userId);
        jobs.forgetSessions(sessions.idsOfUser(tenant.value(), userId));
        int sessionCount = sessions.deleteAllForUser(tenant.value(), userId);
        return new ErasedSessions(sessionCount, turnCount);
    }
}
