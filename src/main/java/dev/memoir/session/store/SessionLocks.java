package dev.memoir.session.store;

import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.session.api.SessionRef;
import dev.memoir.tenant.TenantId;

/**
 * The locks of the session tables, taken in the one order {@code SessionService}'s class comment sets out: the
 * user's lock shared first, then the session's row. Every writer of sessions and turns takes them here.
 */
@Component
public class SessionLocks {

    private final SessionRepository sessions;
    private final AdvisoryLocks locks;

    SessionLocks(SessionRepository sessions, AdvisoryLocks locks) {
        this.sessions = sessions;
        this.locks = locks;
    }

    /**
     * Takes the user's lock shared until the transaction ends: the first lock of every transaction that writes the
     * user's sessions or turns.
     */
    public void holdUser(UUID tenant, String userId) {
        locks.lockShared(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant, userId));
    }

    /**
     * The tenant's session, locked until the transaction ends (FOR UPDATE) after its user's lock (shared); 404 when
     * it is not the tenant's, or is gone by the time the user's lock is held (an erasure got there first).
     */
    public Session lockedWithUser(TenantId tenant, UUID id) {
        String user = sessions.userOf(id, tenant.value()).orElseThrow(() -> new NotFoundException("Session", id));
        holdUser(tenant.value(), user);
        return sessions.lockByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Session", id));
    }

    /**
     * For a background job about to store memory of a session: holds the session until the caller's transaction
     * ends and answers whether it still exists. Erasing the user waits for the hold, so memory written under it is
     * erased too, and memory for an already erased user is never written.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean holdForMemoryWrite(TenantId tenant, UUID sessionId) {
        Optional<String> user = sessions.userOf(sessionId, tenant.value());
        if (user.isEmpty()) {
            return false;
        }
        holdUser(tenant.value(), user.get());
        return sessions.holdByIdAndTenantId(sessionId, tenant.value()).isPresent();
    }

    /** Holds the session as {@link #holdForMemoryWrite} does and answers it; empty when it is gone. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<SessionRef> hold(TenantId tenant, UUID sessionId) {
        if (!holdForMemoryWrite(tenant, sessionId)) {
            return Optional.empty();
        }
        return sessions.findByIdAndTenantId(sessionId, tenant.value()).map(Session::ref);
    }
}
