package dev.memoir.session.closing;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.session.api.SessionClosed;
import dev.memoir.session.store.IdleSession;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.tenant.TenantId;

/**
 * Closes sessions, when their client asks or when they lie idle, and publishes {@link SessionClosed}, whose
 * listeners queue the memory written at a close.
 */
@Component
public class SessionCloser {

    private final SessionRepository sessions;
    private final TurnRepository turns;
    private final SessionLocks locks;
    private final ApplicationEventPublisher events;

    SessionCloser(
            SessionRepository sessions, TurnRepository turns, SessionLocks locks, ApplicationEventPublisher events) {
        this.sessions = sessions;
        this.turns = turns;
        this.locks = locks;
        this.events = events;
    }

    /** Closes the tenant's session (404 when it is not the tenant's); closing a closed session changes nothing. */
    @Transactional
    public void close(TenantId tenant, UUID id) {
        // Locked like an append, so that listeners of the close see every turn and no turn comes after.
        Session session = locks.lockedWithUser(tenant, id);
        if (session.close()) {
            events.publishEvent(new SessionClosed(
                    tenant, session.getUserId(), id, session.getSettings(), turns.maxSeq(tenant.value(), id)));
        }
    }

    /** Open sessions idle since the cutoff, at most {@code limit}. */
    @Transactional(readOnly = true)
    List<IdleSession> idleOpenSessions(Instant cutoff, int limit) {
        return sessions.findIdleOpen(cutoff, Limit.of(limit));
    }

    /**
     * Closes a session nobody closed, as {@link #close} would, unless a turn came after the cutoff meanwhile;
     * answers whether it closed it.
     */
    @Transactional
    boolean closeIfIdle(IdleSession idle, Instant cutoff) {
        UUID id = idle.id();
        String user = sessions.userOf(id, idle.tenantId()).orElse(null);
        if (user == null) {
            return false;
        }
        locks.holdUser(idle.tenantId(), user);
        Session session = sessions.lockByIdAndTenantId(id, idle.tenantId()).orElse(null);
        if (session == null || !session.getUpdatedAt().isBefore(cutoff) || !session.close()) {
            return false;
        }
        events.publishEvent(new SessionClosed(
                new TenantId(session.getTenantId()),
                session.getUserId(),
                id,
                session.getSettings(),
                turns.maxSeq(session.getTenantId(), id)));
        return true;
    }
}
