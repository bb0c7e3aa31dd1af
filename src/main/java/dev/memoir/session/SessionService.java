package dev.memoir.session;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.api.ImportedSession;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.SessionClosed;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.api.TurnsArriving;
import dev.memoir.session.api.TurnsRecorded;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.SessionStatus;
import dev.memoir.session.turns.TurnRecorder;
import dev.memoir.tenant.TenantId;

/**
 * Sessions and their turns. The methods that take a {@link TenantId} serve a caller's request and check that the
 * session belongs to that tenant; those that take only session or turn ids serve memory jobs and the pipelines,
 * which hold ids they already read for a tenant, and must never be given an id from a request.
 *
 * <p>Every transaction that writes a user's sessions, turns or the memory written from them takes the user's lock
 * ({@link AdvisoryLocks.Space#USER_MEMORY}) shared before it locks any session, as the first lock of the
 * transaction. Erasing and importing a user take it exclusively, also first: they wait for the writers in flight
 * and the writers wait for them, and no writer can hold a session an erasure waits for while it waits for the
 * erasure. A writer that comes after an erasure finds no session and writes nothing. ({@link SessionLocks} takes
 * these locks for the module.)
 *
 * <p>Turns are stored by {@link TurnRecorder} inside the module (the module's own imports and conversations store
 * through it too, so it cannot sit up here: the inside never reaches back up); other modules read turns from
 * {@link TurnReader} and delete sessions through {@link SessionDeletion}, both beside this class.
 */
@Service
public class SessionService {

    private final SessionRepository sessions;
    private final MemoryDefaults memoryDefaults;
    private final AdvisoryLocks advisoryLocks;
    private final SessionLocks locks;
    private final TurnRecorder recorder;

    SessionService(
            SessionRepository sessions,
            MemoryDefaults memoryDefaults,
            AdvisoryLocks advisoryLocks,
            SessionLocks locks,
            TurnRecorder recorder) {
        this.sessions = sessions;
        this.memoryDefaults = memoryDefaults;
        this.advisoryLocks = advisoryLocks;
        this.locks = locks;
        this.recorder = recorder;
    }

    /**
     * The user's open session for a client that does not manage sessions (the OpenAI-compatible endpoint): the
     * newest open one, or a new one with the default memory settings. Two first requests at once make one session.
     */
    @Transactional
    public SessionRef conversationOf(TenantId tenant, String userId) {
        locks.holdUser(tenant.value(), userId);
        advisoryLocks.lock(AdvisoryLocks.Space.CONVERSATION, AdvisoryLocks.userKey(tenant.value(), userId));
        Session session = sessions.findFirstByTenantIdAndUserIdAndStatusOrderByCreatedAtDesc(
                        tenant.value(), userId, SessionStatus.OPEN)
                .orElseGet(() -> sessions.save(new Session(tenant.value(), userId, memoryDefaults.resolve(null))));
        return session.ref();
    }

    /** The session, open or closed, if it belongs to the tenant; 404 otherwise. */
    @Transactional(readOnly = true)
    public SessionRef require(TenantId tenant, UUID id) {
        return sessions.require(tenant, id).ref();
    }

    /** The sessions a client's conversation went on in (docs/api.md, "Conversations"), oldest first. */
    @Transactional(readOnly = true)
    public List<UUID> sessionsOfConversation(TenantId tenant, String conversationId) {
        return sessions.findByTenantIdAndConversationIdOrderByCreatedAtAscIdAsc(tenant.value(), conversationId).stream()
                .map(Session::getId)
                .toList();
    }

    /** The session, if it belongs to the tenant and is open; 404 or 409 otherwise. */
    @Transactional(readOnly = true)
    public SessionRef requireOpen(TenantId tenant, UUID id) {
        return sessions.require(tenant, id).requireOpen().ref();
    }

    /**
     * Appends turns to an open session and, in the same transaction, lets listeners write their memory. Listeners
     * prepare first ({@link TurnsArriving}), before the session is locked: embedding a large import must not hold
     * the session, nor a transaction.
     */
    public List<TurnView> append(TenantId tenant, UUID sessionId, List<NewTurn> newTurns) {
        return append(tenant, sessionId, newTurns, TurnOrigin.LIVE);
    }

    /** As above, for turns that reached Memoir another way than from the session's client (an MCP tool's). */
    public List<TurnView> append(TenantId tenant, UUID sessionId, List<NewTurn> newTurns, TurnOrigin origin) {
        return recorder.append(tenant, sessionId, newTurns, origin);
    }

    /**
     * Stores a conversation imported from an assistant's data export as closed sessions of the user (one per run of
     * its messages to store), in one transaction: the sessions, titled as the export titles the conversation, their
     * turns, their close and whatever {@code alsoInTransaction} records about them (the import's key), so that a
     * conversation is stored whole or not at all. {@code underLock} runs first in the transaction, once the user is
     * held: it may throw to store nothing (what the import was planned from has changed). The turns are prepared
     * first, outside the transaction, as {@link #append} does. The turns' times must be in order and not in the
     * future (400 naming {@code turns[i].occurredAt} otherwise, and nothing stored). Each close publishes
     * {@link SessionClosed}, so the sessions' close memories are queued as for a client's close: sessions imported one
     * after another close, and fold into the recursive summary, in that order.
     */
    public List<SessionRef> importClosed(
            TenantId tenant,
            String userId,
            MemorySettingsOverride memory,
            List<ImportedSession> imported,
            TurnOrigin origin,
            Runnable underLock,
            Consumer<List<SessionRef>> alsoInTransaction) {
        return recorder.importClosed(tenant, userId, memory, imported, origin, underLock, alsoInTransaction);
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
    public TurnView appendReply(
            TenantId tenant, UUID sessionId, UUID question, String content, boolean questionWorthRemembering) {
        return recorder.appendReply(tenant, sessionId, question, content, questionWorthRemembering);
    }

    /** A session as background jobs see it, by the tenant the job was queued for. */
    @Transactional(readOnly = true)
    Optional<SessionRef> findForJob(TenantId tenant, UUID sessionId) {
        return sessions.findByIdAndTenantId(sessionId, tenant.value()).map(Session::ref);
    }

    /**
     * Holds the tenant's session against erasure until the caller's transaction ends, as a memory write does, and
     * answers it; empty when it is gone (deleted, or its user erased). What the caller then records about the
     * session is committed before an erasure deletes it, or not at all. Runs only in the caller's transaction.
     */
    public Optional<SessionRef> hold(TenantId tenant, UUID sessionId) {
        return locks.hold(tenant, sessionId);
    }
}
