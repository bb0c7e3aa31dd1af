package dev.memoir.session.turns;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.web.FieldError;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.ClockSkew;
import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.MemorySettings;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.redaction.SecretRedactor;
import dev.memoir.session.api.ImportedSession;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.SessionClosed;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.api.TurnsArriving;
import dev.memoir.session.api.TurnsRecorded;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.Turn;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.tenant.TenantId;

/**
 * Stores new turns at the end of a session, dated and linked to the question they answer, and publishes them:
 * turns a client sends or imports, a whole imported conversation, and the assistant's replies.
 */
@Component
public class TurnRecorder {

    private final SessionRepository sessions;
    private final TurnRepository turns;
    private final SessionLocks locks;
    private final MemoryDefaults memoryDefaults;
    private final ApplicationEventPublisher events;
    private final ClockSkew clockSkew;
    private final TransactionTemplate transaction;
    private final SecretRedactor redactor;

    TurnRecorder(
            SessionRepository sessions,
            TurnRepository turns,
            SessionLocks locks,
            MemoryDefaults memoryDefaults,
            ApplicationEventPublisher events,
            ClockSkew clockSkew,
            TransactionTemplate transaction,
            SecretRedactor redactor) {
        this.sessions = sessions;
        this.turns = turns;
        this.locks = locks;
        this.memoryDefaults = memoryDefaults;
        this.events = events;
        this.clockSkew = clockSkew;
        this.transaction = transaction;
        this.redactor = redactor;
    }

    /** The turns with their secrets masked: what is embedded, stored and shown from then on. */
    private List<NewTurn> redacted(TenantId tenant, List<NewTurn> newTurns) {
        return newTurns.stream()
                .map(t -> new NewTurn(t.role(), redactor.redact(tenant, t.content()), t.occurredAt(), t.speaker()))
                .toList();
    }

    /**
     * Appends turns to an open session; listeners prepare first ({@link TurnsArriving}), before the session is
     * locked, since embedding a large import must not hold the session, nor a transaction.
     */
    public List<TurnView> append(TenantId tenant, UUID sessionId, List<NewTurn> given, TurnOrigin origin) {
        List<NewTurn> newTurns = redacted(tenant, given);
        Session unlocked = sessions.require(tenant, sessionId).requireOpen();
        events.publishEvent(new TurnsArriving(tenant, sessionId, unlocked.getSettings(), newTurns));
        return transaction.execute(status ->
                storeTurns(tenant, locks.lockedWithUser(tenant, sessionId).requireOpen(), newTurns, origin));
    }

    /**
     * Stores an imported conversation as closed sessions in one transaction, whole or not at all; the turns are
     * prepared first, outside the transaction, as {@link #append} does.
     */
    public List<SessionRef> importClosed(
            TenantId tenant,
            String userId,
            MemorySettingsOverride memory,
            List<ImportedSession> given,
            TurnOrigin origin,
            Runnable underLock,
            Consumer<List<SessionRef>> alsoInTransaction) {
        MemorySettings settings = memoryDefaults.resolve(memory);
        List<ImportedSession> imported = given.stream()
                .map(s -> new ImportedSession(s.title(), redacted(tenant, s.turns())))
                .toList();
        List<UUID> ids = new ArrayList<>();
        for (ImportedSession session : imported) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            events.publishEvent(new TurnsArriving(tenant, id, settings, session.turns()));
        }
        return transaction.execute(status -> {
            locks.holdUser(tenant.value(), userId);
            underLock.run();
            List<SessionRef> refs = new ArrayList<>();
            for (int i = 0; i < imported.size(); i++) {
                Session session = sessions.save(new Session(
                        ids.get(i),
                        tenant.value(),
                        userId,
                        settings,
                        imported.get(i).title()));
                List<TurnView> stored =
                        storeTurns(tenant, session, imported.get(i).turns(), origin);
                session.close();
                events.publishEvent(new SessionClosed(
                        tenant,
                        userId,
                        session.getId(),
                        settings,
                        stored.getLast().seq()));
                refs.add(session.ref());
            }
            // What the caller records may reference the sessions' rows, which must be written first.
            sessions.flush();
            alsoInTransaction.accept(refs);
            return refs;
        });
    }

    /** Stores turns at the end of a session locked (or created) by the caller's transaction, and publishes them. */
    private List<TurnView> storeTurns(TenantId tenant, Session session, List<NewTurn> newTurns, TurnOrigin origin) {
        UUID sessionId = session.getId();
        int seq = turns.maxSeq(tenant.value(), sessionId);
        List<Instant> times = dialogueTimes(
                newTurns, turns.lastOccurredAt(tenant.value(), sessionId).orElse(null));
        List<TurnView> stored = new ArrayList<>(newTurns.size());
        // The session's last turn matters only to a first new turn that replies to it.
        TurnView previous = newTurns.isEmpty() || newTurns.getFirst().role() != Role.ASSISTANT
                ? null
                : turns
                        .findByTenantIdAndSessionIdAndSeqLessThanEqualOrderBySeqDesc(
                                tenant.value(), sessionId, seq, Limit.of(1))
                        .stream()
                        .map(Turn::view)
                        .findFirst()
                        .orElse(null);
        for (int i = 0; i < newTurns.size(); i++) {
            NewTurn turn = newTurns.get(i);
            // An imported reply answers the user turn right before it.
            UUID question = turn.role() == Role.ASSISTANT && previous != null && previous.role() == Role.USER
                    ? previous.id()
                    : null;
            previous = turns.save(new Turn(tenant.value(), sessionId, ++seq, turn, times.get(i), question, origin))
                    .view();
            stored.add(previous);
        }
        session.heard(stored.getFirst().occurredAt(), stored.getLast().occurredAt());
        events.publishEvent(
                new TurnsRecorded(tenant, session.getUserId(), sessionId, session.getSettings(), stored, List.of()));
        return stored;
    }

    /**
     * Stores the assistant's reply to the user turn {@code question}, even if the session was closed while the
     * model was answering (the model's work is not thrown away).
     */
    @Transactional
    public TurnView appendReply(
            TenantId tenant, UUID sessionId, UUID question, String content, boolean questionWorthRemembering) {
        Session session = locks.lockedWithUser(tenant, sessionId);
        Turn asked = turns.findByIdAndTenantId(question, tenant.value())
                .filter(t -> t.view().sessionId().equals(sessionId))
                .orElseThrow(() -> new NotFoundException("Turn", question));
        Instant previous = turns.lastOccurredAt(tenant.value(), sessionId).orElse(null);
        Instant now = Instant.now();
        TurnView stored = turns.save(new Turn(
                        tenant.value(),
                        sessionId,
                        turns.maxSeq(tenant.value(), sessionId) + 1,
                        Role.ASSISTANT,
                        redactor.redactModelText(tenant, content),
                        notBefore(previous, now),
                        asked.view().id()))
                .view();
        session.heard(stored.occurredAt(), stored.occurredAt());
        events.publishEvent(new TurnsRecorded(
                tenant,
                session.getUserId(),
                sessionId,
                session.getSettings(),
                List.of(stored),
                questionWorthRemembering ? List.of(question) : List.of()));
        return stored;
    }

    /**
     * When each new turn was said. A given time must not be in the future (beyond the allowed clock skew) nor
     * before the turn before it; a turn without one is dated by {@link #notBefore}.
     */
    private List<Instant> dialogueTimes(List<NewTurn> newTurns, Instant previous) {
        Instant now = Instant.now();
        Instant latestAllowed = clockSkew.latestAllowed();
        List<FieldError> errors = new ArrayList<>();
        List<Instant> times = new ArrayList<>(newTurns.size());
        for (int i = 0; i < newTurns.size(); i++) {
            Instant given = newTurns.get(i).occurredAt();
            Instant time = given != null ? given : notBefore(previous, now);
            if (given != null && given.isAfter(latestAllowed)) {
                errors.add(new FieldError("turns[" + i + "].occurredAt", "is in the future: " + given));
            } else if (given != null && previous != null && given.isBefore(previous)) {
                errors.add(new FieldError(
                        "turns[" + i + "].occurredAt",
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

    /**
     * When a turn without a time of its own is said: now, or at the previous turn's time if that is later (a
     * client's clock may run a little ahead), so that a session's turns are always in time order.
     */
    private static Instant notBefore(Instant previous, Instant now) {
        return previous != null && previous.isAfter(now) ? previous : now;
    }
}
