package dev.memoir.session.web;

import java.util.List;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.Cursor;
import dev.memoir.jobs.JobStatus;
import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.Turn;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.tenant.TenantId;

/** Sessions as the {@code /sessions} endpoints show them: started, read with their turns and jobs, and paged. */
@Component
class SessionViews {

    private final SessionRepository sessions;
    private final TurnRepository turns;
    private final SessionLocks locks;
    private final MemoryDefaults memoryDefaults;
    private final Jobs jobs;

    SessionViews(
            SessionRepository sessions,
            TurnRepository turns,
            SessionLocks locks,
            MemoryDefaults memoryDefaults,
            Jobs jobs) {
        this.sessions = sessions;
        this.turns = turns;
        this.locks = locks;
        this.memoryDefaults = memoryDefaults;
        this.jobs = jobs;
    }

    @Transactional
    SessionView create(TenantId tenant, String userId, MemorySettingsOverride memory) {
        locks.holdUser(tenant.value(), userId);
        Session session = sessions.save(new Session(tenant.value(), userId, memoryDefaults.resolve(memory)));
        return view(session, null);
    }

    @Transactional(readOnly = true)
    SessionView get(TenantId tenant, UUID id) {
        Session session = sessions.require(tenant, id);
        return view(
                session,
                turns.findByTenantIdAndSessionIdOrderBySeqAsc(tenant.value(), id).stream()
                        .map(Turn::view)
                        .toList(),
                jobs.ofSession(id));
    }

    /** A page of the user's sessions, newest first, after the previous page's cursor (null for the first). */
    @Transactional(readOnly = true)
    SessionList list(TenantId tenant, String userId, String cursor, int limit) {
        Cursor after = Cursor.decode(cursor, "sessions", 2);
        List<Session> fetched = after == null
                ? sessions.findByTenantIdAndUserIdOrderByCreatedAtDescIdDesc(
                        tenant.value(), userId, Limit.of(limit + 1))
                : sessions.findPageAfter(tenant.value(), userId, after.instant(0), after.uuid(1), limit + 1);
        Cursor.Page<SessionView> page = Cursor.page(
                fetched.stream().map(s -> view(s, null)).toList(),
                limit,
                s -> Cursor.encode("sessions", s.createdAt(), s.id()));
        return new SessionList(page.items(), page.nextCursor());
    }

    private static SessionView view(Session s, List<TurnView> turnViews) {
        return view(s, turnViews, null);
    }

    private static SessionView view(Session s, List<TurnView> turnViews, List<JobStatus> jobStatuses) {
        return new SessionView(
                s.getId(),
                s.getUserId(),
                s.getTitle(),
                s.getStatus(),
                s.getSettings(),
                s.getCreatedAt(),
                s.getUpdatedAt(),
                s.getClosedAt(),
                s.getFirstTurnAt(),
                s.getLastTurnAt(),
                turnViews,
                jobStatuses);
    }
}
