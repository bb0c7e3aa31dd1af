package dev.memoir.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.jobs.JobStatus;
import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.MemorySettings;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.session.config.SessionProperties;
import dev.memoir.session.store.IdleSession;
import dev.memoir.session.store.NotAReplyException;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionClosedException;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.SessionStatus;
import dev.memoir.session.store.Turn;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.session.web.SessionList;
import dev.memoir.session.web.SessionView;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.AdvisoryLocks;
import dev.memoir.web.Cursor;
import dev.memoir.web.FieldError;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.NotFoundException;

/**
 * Sessions and their turns. The methods that take a {@link TenantId} serve a caller's request and check that the
 * session belongs to that tenant; those that take only session or turn ids serve memory jobs and the pipelines,
 * which hold ids they already read for a tenant, and must never be given an id from a request.
 *
 * <p>Every transaction that writes a user's sessions, turns or the memory written from them takes the user's lock
 * ({@link AdvisoryLocks.Space#USER_MEMORY}) shared before it locks any session, as the first lock of the
 * transaction. Erasing and importing a user take it exclusively, also first: they wait for the writers in flight
 * and the writers wait for them, and no writer can hold a session an erasure waits for while it waits for the
 * erasure. A writer that comes after an erasure finds no session and writes nothing.
 */
@Service
public class SessionService {

    private final SessionRepository sessions;
    private final TurnRepository turns;
    private final MemoryDefaults memoryDefaults;
    private final ApplicationEventPublisher events;
    private final SessionProperties properties;
    private final TransactionTemplate transaction;
    private final Jobs jobs;
    private final AdvisoryLocks locks;

    SessionService(SessionRepository sessions, TurnRepository turns, MemoryDefaults memoryDefaults,
            ApplicationEventPublisher events, SessionProperties properties, TransactionTemplate transaction,
            Jobs jobs, AdvisoryLocks locks) {
        this.locks = locks;
        this.jobs = jobs;
        this.transaction = transaction;
        this.sessions = sessions;
        this.turns = turns;
        this.memoryDefaults = memoryDefaults;
        this.events = events;
        this.properties = properties;
    }

    @Transactional
    public SessionView create(TenantId tenant, String userId, MemorySettingsOverride memory) {
        holdUser(tenant.value(), userId);
        Session session = sessions.save(new Session(tenant.value(), userId, memoryDefaults.resolve(memory)));
        return view(session, null);
    }

    @Transactional(readOnly = true)
    public SessionView get(TenantId tenant, UUID id) {
        Session session = find(tenant, id);
        return view(session, turns.findByTenantIdAndSessionIdOrderBySeqAsc(tenant.value(), id).stream()
                .map(Turn::view).toList(),
                jobs.ofSession(id));
    }

    /** A page of the user's sessions, newest first, after the previous page's cursor (null for the first). */
    @Transactional(readOnly = true)
    public SessionList list(TenantId tenant, String userId, String cursor, int limit) {
        Cursor after = Cursor.decode(cursor, "sessions", 2);
        List<Session> fetched = after == null
                ? sessions.findByTenantIdAndUserIdOrderByCreatedAtDescIdDesc(tenant.value(), userId,
                        Limit.of(limit + 1))
                : sessions.findPageAfter(tenant.value(), userId, after.instant(0), after.uuid(1), limit + 1);
        Cursor.Page<SessionView> page = Cursor.page(fetched.stream().map(s -> view(s, null)).toList(), limit,
                s -> Cursor.encode("sessions", s.createdAt(), s.id()));
        return new SessionList(page.items(), page.nextCursor());
    }

    /**
     * The user's open session for a client that does not manage sessions (the OpenAI-compatible endpoint): the
     * newest open one, or a new one with the default memory settings. Two first requests at once make one session.
     */
    @Transactional
    public SessionRef conversationOf(TenantId tenant, String userId) {
        holdUser(tenant.value(), userId);
        locks.lock(AdvisoryLocks.Space.CONVERSATION, AdvisoryLocks.userKey(tenant.value(), userId));
        Session session = sessions.findFirstByTenantIdAndUserIdAndStatusOrderByCreatedAtDesc(tenant.value(), userId,
                        SessionStatus.OPEN)
                .orElseGet(() -> sessions.save(new Session(tenant.value(), userId, memoryDefaults.resolve(null))));
        return session.ref();
    }

    /** The session, if it belongs to the tenant and is open; 404 or 409 otherwise. */
    @Transactional(readOnly = true)
    public SessionRef requireOpen(TenantId tenant, UUID id) {
        return open(find(tenant, id)).ref();
    }

    /**
     * Appends turns to an open session and, in the same transaction, lets listeners write their memory. Listeners
     * prepare first ({@link TurnsArriving}), before the session is locked: embedding a large import must not hold
     * the session, nor a transaction.
     */
    public List<TurnView> append(TenantId tenant, UUID sessionId, List<NewTurn> newTurns) {
        Session unlocked = open(find(tenant, sessionId));
        events.publishEvent(new TurnsArriving(tenant, sessionId, unlocked.getSettings(), newTurns));
        return transaction.execute(status -> appendLocked(tenant, sessionId, newTurns));
    }

    private List<TurnView> appendLocked(TenantId tenant, UUID sessionId, List<NewTurn> newTurns) {
        return storeTurns(tenant, open(lockedWithUser(tenant, sessionId)), newTurns);
    }

    /**
     * Stores a conversation imported from an assistant's data export as one closed session of the user, in one
     * transaction: the session, titled as the export titles it, its turns, its close and whatever
     * {@code alsoInTransaction} records about it (the import's key), so that a conversation is stored whole or not
     * at all. The turns are prepared first, outside the transaction, as {@link #append} does. The turns' times must
     * be in order and not in the future (400 naming {@code turns[i].occurredAt} otherwise, and nothing stored).
     * The close publishes {@link SessionClosed}, so the session's close memories are queued as for a client's
     * close: sessions imported one after another close, and fold into the recursive summary, in that order.
     */
    public SessionRef importClosed(TenantId tenant, String userId, MemorySettingsOverride memory, String title,
            List<NewTurn> newTurns, Consumer<SessionRef> alsoInTransaction) {
        if (newTurns.isEmpty()) {
            throw new IllegalArgumentException("An imported session has at least one turn");
        }
        MemorySettings settings = memoryDefaults.resolve(memory);
        UUID id = UUID.randomUUID();
        events.publishEvent(new TurnsArriving(tenant, id, settings, newTurns));
        return transaction.execute(status -> {
            holdUser(tenant.value(), userId);
            Session session = sessions.save(new Session(id, tenant.value(), userId, settings, title));
            List<TurnView> stored = storeTurns(tenant, session, newTurns);
            session.close();
            events.publishEvent(new SessionClosed(tenant, userId, id, settings, stored.getLast().seq()));
            // What the caller records may reference the session's row, which must be written first.
            sessions.flush();
            alsoInTransaction.accept(session.ref());
            return session.ref();
        });
    }

    /** Stores turns at the end of a session locked (or created) by the caller's transaction, and publishes them. */
    private List<TurnView> storeTurns(TenantId tenant, Session session, List<NewTurn> newTurns) {
        UUID sessionId = session.getId();
        int seq = turns.maxSeq(tenant.value(), sessionId);
        List<Instant> times = dialogueTimes(newTurns, turns.lastOccurredAt(tenant.value(), sessionId).orElse(null));
        List<TurnView> stored = new ArrayList<>(newTurns.size());
        // The session's last turn matters only to a first new turn that replies to it.
        TurnView previous = newTurns.isEmpty() || newTurns.getFirst().role() != Role.ASSISTANT ? null
                : turns.findByTenantIdAndSessionIdAndSeqLessThanEqualOrderBySeqDesc(tenant.value(), sessionId, seq,
                        Limit.of(1)).stream()
                        .map(Turn::view).findFirst().orElse(null);
        for (int i = 0; i < newTurns.size(); i++) {
            NewTurn turn = newTurns.get(i);
            // An imported reply answers the user turn right before it.
            UUID question = turn.role() == Role.ASSISTANT && previous != null && previous.role() == Role.USER
                    ? previous.id() : null;
            previous = turns.save(new Turn(tenant.value(), sessionId, ++seq, turn, times.get(i), question)).view();
            stored.add(previous);
        }
        session.heard(stored.getFirst().occurredAt(), stored.getLast().occurredAt());
        events.publishEvent(new TurnsRecorded(tenant, session.getUserId(), sessionId, session.getSettings(), stored,
                List.of()));
        return stored;
    }

    /**
     * Stores the assistant's reply to the user turn {@code question}, with that turn named as what it answers. A
     * reply whose question was asked while the session was open is stored even if the session was closed while
     * the model was answering: the model's work is not thrown away, and the reply is part of the session's
     * history memory. (What the close wrote before the reply arrived, a summary say, does not include it.)
     *
     * @param questionWorthRemembering the reply judged the question worth remembering: listeners of
     *                                 {@link TurnsRecorded} write its conditional memory if the session keeps one
     */
    @Transactional
    public TurnView appendReply(TenantId tenant, UUID sessionId, UUID question, String content,
            boolean questionWorthRemembering) {
        Session session = lockedWithUser(tenant, sessionId);
        Turn asked = turns.findByIdAndTenantId(question, tenant.value())
                .filter(t -> t.view().sessionId().equals(sessionId))
                .orElseThrow(() -> new NotFoundException("Turn", question));
        Instant previous = turns.lastOccurredAt(tenant.value(), sessionId).orElse(null);
        Instant now = Instant.now();
        TurnView stored = turns.save(new Turn(tenant.value(), sessionId, turns.maxSeq(tenant.value(), sessionId) + 1,
                Role.ASSISTANT, content, notBefore(previous, now), asked.view().id())).view();
        session.heard(stored.occurredAt(), stored.occurredAt());
        events.publishEvent(new TurnsRecorded(tenant, session.getUserId(), sessionId, session.getSettings(),
                List.of(stored), questionWorthRemembering ? List.of(question) : List.of()));
        return stored;
    }

    /**
     * When each new turn was said. A given time must not be in the future (beyond the allowed clock skew) nor
     * before the turn before it; a turn without one is dated by {@link #notBefore}.
     */
    private List<Instant> dialogueTimes(List<NewTurn> newTurns, Instant previous) {
        Instant now = Instant.now();
        Instant latestAllowed = now.plus(properties.clockSkew());
        List<FieldError> errors = new ArrayList<>();
        List<Instant> times = new ArrayList<>(newTurns.size());
        for (int i = 0; i < newTurns.size(); i++) {
            Instant given = newTurns.get(i).occurredAt();
            Instant time = given != null ? given : notBefore(previous, now);
            if (given != null && given.isAfter(latestAllowed)) {
                errors.add(new FieldError("turns[" + i + "].occurredAt", "is in the future: " + given));
            } else if (given != null && previous != null && given.isBefore(previous)) {
                errors.add(new FieldError("turns[" + i + "].occurredAt",
                        "is before the turn before it (" + previous + "); turns must be in the order they were said"));
            }
            times.add(time);
            previous = time;
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return times;
    }

    /** Up to {@code count} turns ending with the tenant's given one, oldest first: the dialogue as it stood then. */
    @Transactional(readOnly = true)
    public List<TurnView> turnsEndingWith(TenantId tenant, UUID turnId, int count) {
        return turns.findByIdAndTenantId(turnId, tenant.value())
                .map(Turn::view)
                .map(turn -> oldestFirst(turns.findByTenantIdAndSessionIdAndSeqLessThanEqualOrderBySeqDesc(
                        tenant.value(), turn.sessionId(), turn.seq(), Limit.of(count))))
                .orElse(List.of());
    }

    /**
     * An assistant turn of the tenant with the user message it answered, for feedback on a reply: 404 when the
     * turn is unknown or another tenant's, 400 when it is not a reply.
     */
    @Transactional(readOnly = true)
    public RepliedTurn reply(TenantId tenant, UUID turnId) {
        Turn turn = turns.findByIdAndTenantId(turnId, tenant.value())
                .orElseThrow(() -> new NotFoundException("Turn", turnId));
        TurnView reply = turn.view();
        Session session = sessions.findByIdAndTenantId(reply.sessionId(), tenant.value())
                .orElseThrow(() -> new NotFoundException("Turn", turnId));
        if (reply.role() != Role.ASSISTANT) {
            throw new NotAReplyException(turnId);
        }
        TurnView question = Optional.ofNullable(reply.replyTo())
                .flatMap(asked -> turns.findByIdAndTenantId(asked, tenant.value())).map(Turn::view)
                .orElseThrow(() -> new NotAReplyException(turnId));
        return new RepliedTurn(session.ref(),
                question, reply);
    }

    /** The tenant's turns with these ids, in dialogue order. */
    @Transactional(readOnly = true)
    public List<TurnView> turnsByIds(TenantId tenant, List<UUID> ids) {
        return turns.findByTenantIdAndIdIn(tenant.value(), ids).stream().map(Turn::view)
                .sorted(Comparator.comparing(TurnView::sessionId).thenComparingInt(TurnView::seq))
                .toList();
    }

    /**
     * Each of the given turns with its neighbours in its session, up to {@code radius} turns before and after it, in
     * dialogue order, by the id of the turn they surround; turns of other tenants or no longer stored are left out.
     */
    @Transactional(readOnly = true)
    public Map<UUID, List<TurnView>> turnsAround(TenantId tenant, Collection<UUID> turnIds, int radius) {
        List<TurnView> centers = turns.findByTenantIdAndIdIn(tenant.value(), turnIds).stream().map(Turn::view).toList();
        if (centers.isEmpty()) {
            return Map.of();
        }
        String sessionIds = centers.stream().map(t -> t.sessionId().toString())
                .collect(Collectors.joining(",", "{", "}"));
        String seqs = centers.stream().map(t -> Integer.toString(t.seq())).collect(Collectors.joining(",", "{", "}"));
        Map<UUID, List<TurnView>> bySession = turns.findAround(tenant.value(), sessionIds, seqs, radius).stream()
                .map(Turn::view)
                .collect(Collectors.groupingBy(TurnView::sessionId, Collectors.collectingAndThen(
                        Collectors.toMap(TurnView::id, t -> t, (a, b) -> a), m -> List.copyOf(m.values()))));
        Map<UUID, List<TurnView>> around = new HashMap<>();
        for (TurnView center : centers) {
            List<TurnView> window = bySession.getOrDefault(center.sessionId(), List.of()).stream()
                    .filter(t -> Math.abs(t.seq() - center.seq()) <= radius)
                    .sorted(Comparator.comparingInt(TurnView::seq))
                    .toList();
            if (!window.isEmpty()) {
                around.put(center.id(), window);
            }
        }
        return around;
    }

    /** The turns of a session from position {@code fromSeq} to {@code toSeq}, both included, in order. */
    @Transactional(readOnly = true)
    public List<TurnView> turnsBetween(TenantId tenant, UUID sessionId, int fromSeq, int toSeq) {
        return turns.findByTenantIdAndSessionIdAndSeqBetweenOrderBySeqAsc(tenant.value(), sessionId, fromSeq, toSeq)
                .stream().map(Turn::view).toList();
    }

    @Transactional(readOnly = true)
    public List<TurnView> allTurns(TenantId tenant, UUID sessionId) {
        return turns.findByTenantIdAndSessionIdOrderBySeqAsc(tenant.value(), sessionId).stream().map(Turn::view)
                .toList();
    }

    /** A session as background jobs see it, by the tenant the job was queued for. */
    @Transactional(readOnly = true)
    Optional<SessionRef> findForJob(TenantId tenant, UUID sessionId) {
        return sessions.findByIdAndTenantId(sessionId, tenant.value())
                .map(Session::ref);
    }

    /**
     * For a background job about to store memory of a session (through {@link SessionMemoryWrite}): holds the
     * session until the caller's transaction ends and answers whether it still exists. Erasing the user waits for
     * the hold, so memory written under it is erased too, and memory for an already erased user is never written.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean holdForMemoryWrite(TenantId tenant, UUID sessionId) {
        Optional<String> user = sessions.userOf(sessionId, tenant.value());
        if (user.isEmpty()) {
            return false;
        }
        holdUser(tenant.value(), user.get());
        return sessions.holdByIdAndTenantId(sessionId, tenant.value()).isPresent();
    }

    /**
     * Holds the tenant's session against erasure until the caller's transaction ends, as a memory write does, and
     * answers it; empty when it is gone (deleted, or its user erased). What the caller then records about the
     * session is committed before an erasure deletes it, or not at all.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<SessionRef> hold(TenantId tenant, UUID sessionId) {
        if (!holdForMemoryWrite(tenant, sessionId)) {
            return Optional.empty();
        }
        return sessions.findByIdAndTenantId(sessionId, tenant.value()).map(Session::ref);
    }

    @Transactional
    public void close(TenantId tenant, UUID id) {
        // Locked like append, so that listeners of the close see every turn and no turn comes after.
        Session session = lockedWithUser(tenant, id);
        if (session.close()) {
            events.publishEvent(new SessionClosed(tenant, session.getUserId(), id, session.getSettings(),
                    turns.maxSeq(tenant.value(), id)));
        }
    }

    /**
     * Locks one session for deletion and answers its user and its turns' ids, or 404. The lock waits for a memory
     * job that holds the session, so that what it writes is committed first, then seen and deleted with the session.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public SessionForDeletion lockForDeletion(TenantId tenant, UUID id) {
        Session session = lockedWithUser(tenant, id);
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

    /** Open sessions idle since the cutoff, at most {@code limit}. */
    @Transactional(readOnly = true)
    public List<IdleSession> idleOpenSessions(Instant cutoff, int limit) {
        return sessions.findIdleOpen(cutoff, Limit.of(limit));
    }

    /**
     * Closes a session nobody closed, as {@link #close} would, unless a turn came after the cutoff meanwhile;
     * answers whether it closed it.
     */
    @Transactional
    public boolean closeIfIdle(IdleSession idle, Instant cutoff) {
        UUID id = idle.id();
        String user = sessions.userOf(id, idle.tenantId()).orElse(null);
        if (user == null) {
            return false;
        }
        holdUser(idle.tenantId(), user);
        Session session = sessions.lockByIdAndTenantId(id, idle.tenantId()).orElse(null);
        if (session == null || !session.getUpdatedAt().isBefore(cutoff) || !session.close()) {
            return false;
        }
        events.publishEvent(new SessionClosed(new TenantId(session.getTenantId()), session.getUserId(), id,
                session.getSettings(), turns.maxSeq(session.getTenantId(), id)));
        return true;
    }

    /**
     * Removes every session and turn of a user; part of erasing the user, whose caller holds the user's lock
     * exclusively: no writer of the user is in flight, and none comes before the erasure commits.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public ErasedSessions deleteAllForUser(TenantId tenant, String userId) {
        int turnCount = turns.deleteAllForUser(tenant.value(), userId);
        jobs.forgetSessions(sessions.idsOfUser(tenant.value(), userId));
        int sessionCount = sessions.deleteAllForUser(tenant.value(), userId);
        return new ErasedSessions(sessionCount, turnCount);
    }

    /**
     * The tenant's session, locked until the transaction ends (FOR UPDATE) after its user's lock (shared); 404 when
     * it is not the tenant's, or is gone by the time the user's lock is held (an erasure got there first).
     */
    private Session lockedWithUser(TenantId tenant, UUID id) {
        String user = sessions.userOf(id, tenant.value()).orElseThrow(() -> new NotFoundException("Session", id));
        holdUser(tenant.value(), user);
        return locked(tenant, id);
    }

    /**
     * Takes the user's lock shared until the transaction ends: the first lock of every transaction that writes the
     * user's sessions or turns (see the class comment).
     */
    private void holdUser(UUID tenant, String userId) {
        locks.lockShared(AdvisoryLocks.Space.USER_MEMORY, AdvisoryLocks.userKey(tenant, userId));
    }

    /** The tenant's session, locked until the transaction ends (FOR UPDATE); 404 when it is not the tenant's. */
    private Session locked(TenantId tenant, UUID id) {
        return sessions.lockByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Session", id));
    }

    /** The session, if it is open; 409 otherwise. */
    private static Session open(Session session) {
        if (session.getStatus() != SessionStatus.OPEN) {
            throw new SessionClosedException(session.getId());
        }
        return session;
    }

    /**
     * When a turn without a time of its own is said: now, or at the previous turn's time if that is later (a
     * client's clock may run a little ahead), so that a session's turns are always in time order.
     */
    private static Instant notBefore(Instant previous, Instant now) {
        return previous != null && previous.isAfter(now) ? previous : now;
    }

    private Session find(TenantId tenant, UUID id) {
        return sessions.findByIdAndTenantId(id, tenant.value())
                .orElseThrow(() -> new NotFoundException("Session", id));
    }

    private static List<TurnView> oldestFirst(List<Turn> newestFirst) {
        List<TurnView> views = new ArrayList<>(newestFirst.stream().map(Turn::view).toList());
        Collections.reverse(views);
        return views;
    }

    private static SessionView view(Session s, List<TurnView> turnViews) {
        return view(s, turnViews, null);
    }

    private static SessionView view(Session s, List<TurnView> turnViews, List<JobStatus> jobStatuses) {
        return new SessionView(s.getId(), s.getUserId(), s.getTitle(), s.getStatus(), s.getSettings(), s.getCreatedAt(),
                s.getUpdatedAt(), s.getClosedAt(), s.getFirstTurnAt(), s.getLastTurnAt(), turnViews, jobStatuses);
    }
}
