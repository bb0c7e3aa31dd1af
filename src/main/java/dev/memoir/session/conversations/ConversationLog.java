package dev.memoir.session.conversations;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.jdbc.AdvisoryLocks;
import dev.memoir.common.web.ConflictException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.memory.MemoryDefaults;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.redaction.SecretRedactor;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.store.Session;
import dev.memoir.session.store.SessionLocks;
import dev.memoir.session.store.SessionRepository;
import dev.memoir.session.store.SideMessage;
import dev.memoir.session.store.SideMessageRepository;
import dev.memoir.session.store.Turn;
import dev.memoir.session.store.TurnRepository;
import dev.memoir.session.turns.TurnRecorder;
import dev.memoir.tenant.TenantId;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client's conversation as it sent it (Spring AI's chat memory, say): its messages go into the conversation's open
 * session, or a new one when it has none, the dialogue as turns (memory is written from them as from any session's)
 * and the rest kept beside them in place; read back whole, in order, across the sessions it went on in.
 */
@Service
class ConversationLog {

    private static final TypeReference<List<ConversationMessage.ToolCall>> TOOL_CALLS = new TypeReference<>() {};

    private final SessionRepository sessions;
    private final TurnRepository turns;
    private final SideMessageRepository sideMessages;
    private final TurnRecorder recorder;
    private final SessionLocks locks;
    private final AdvisoryLocks advisoryLocks;
    private final MemoryDefaults memoryDefaults;
    private final TransactionTemplate transaction;
    private final SecretRedactor redactor;
    private final JsonMapper json = JsonMapper.builder().build();

    ConversationLog(
            SessionRepository sessions,
            TurnRepository turns,
            SideMessageRepository sideMessages,
            TurnRecorder recorder,
            SessionLocks locks,
            AdvisoryLocks advisoryLocks,
            MemoryDefaults memoryDefaults,
            TransactionTemplate transaction,
            SecretRedactor redactor) {
        this.sessions = sessions;
        this.turns = turns;
        this.sideMessages = sideMessages;
        this.recorder = recorder;
        this.locks = locks;
        this.advisoryLocks = advisoryLocks;
        this.memoryDefaults = memoryDefaults;
        this.transaction = transaction;
        this.redactor = redactor;
    }

    /**
     * Adds the messages after those the conversation holds. A session closed meanwhile (idle, or by its client) is
     * followed by a new one, into which the messages not yet stored go: none is stored twice, none lost.
     */
    ConversationAppended append(TenantId tenant, String conversationId, ConversationAppend request) {
        List<ConversationMessage> messages = request.messages();
        // Each run of messages is stored in a transaction of its own: a class the tenant's policy refuses, in any
        // message's text or tool calls, refuses the whole request before the first is stored.
        for (ConversationMessage m : messages) {
            redactor.redact(tenant, m.content());
            if (m.hasToolCalls()) {
                redactor.redact(tenant, json.writeValueAsString(m.toolCalls()));
            }
        }
        int stored = 0;
        int turnCount = 0;
        int sideCount = 0;
        UUID sessionId = openSession(tenant, conversationId, request.userId());
        while (stored < messages.size()) {
            int end = runEnd(messages, stored);
            List<ConversationMessage> run = messages.subList(stored, end);
            try {
                if (run.get(0).isDialogue()) {
                    turnCount += run.size();
                    sideCount += storeDialogue(tenant, sessionId, run);
                } else {
                    sideCount += storeSide(tenant, sessionId, run);
                }
                stored = end;
            } catch (ConflictException e) {
                if (!"session-closed".equals(e.code())) {
                    throw e;
                }
                sessionId = openSession(tenant, conversationId, request.userId());
            }
        }
        return new ConversationAppended(sessionId, turnCount, sideCount);
    }

    /** The conversation's latest {@code limit} messages, oldest first; 404 when the tenant has no such one. */
    ConversationMessages read(TenantId tenant, String conversationId, int limit) {
        return transaction.execute(status -> {
            List<Session> parts =
                    sessions.findByTenantIdAndConversationIdOrderByCreatedAtAscIdAsc(tenant.value(), conversationId);
            if (parts.isEmpty()) {
                throw new NotFoundException("Conversation", conversationId);
            }
            Map<UUID, List<SideMessage>> sides = sideMessages
                    .findByTenantIdAndSessionIdInOrderByAfterSeqAscOrdinalAsc(
                            tenant.value(), parts.stream().map(Session::getId).toList())
                    .stream()
                    .collect(Collectors.groupingBy(SideMessage::getSessionId));
            // Newest session first, and no older one read once the latest messages are in hand.
            List<ConversationMessage> all = new ArrayList<>();
            for (int i = parts.size() - 1; i >= 0 && all.size() < limit; i--) {
                UUID part = parts.get(i).getId();
                all.addAll(
                        0,
                        inOrder(
                                turns.findByTenantIdAndSessionIdOrderBySeqAsc(tenant.value(), part),
                                sides.getOrDefault(part, List.of())));
            }
            return new ConversationMessages(
                    conversationId,
                    parts.get(parts.size() - 1).getUserId(),
                    List.copyOf(all.subList(Math.max(0, all.size() - limit), all.size())));
        });
    }

    ConversationIds ids(TenantId tenant, int limit) {
        return new ConversationIds(sessions.conversationIds(tenant.value(), limit));
    }

    /** The conversation's open session, or a new one; 409 when the conversation is another user's. */
    private UUID openSession(TenantId tenant, String conversationId, String userId) {
        return transaction.execute(status -> {
            locks.holdUser(tenant.value(), userId);
            // Two first appends at once start one session, not two.
            advisoryLocks.lock(
                    AdvisoryLocks.Space.CONVERSATION,
                    AdvisoryLocks.userKey(tenant.value(), "conversation\t" + conversationId));
            var latest = sessions.findFirstByTenantIdAndConversationIdOrderByCreatedAtDescIdDesc(
                    tenant.value(), conversationId);
            if (latest.isPresent() && !latest.get().getUserId().equals(userId)) {
                throw new ConflictException(
                        "conversation-of-another-user",
                        "Conversation " + conversationId + " belongs to another user of this tenant");
            }
            if (latest.isPresent() && latest.get().isOpen()) {
                return latest.get().getId();
            }
            return sessions.save(Session.ofConversation(
                            tenant.value(), userId, memoryDefaults.resolve(null), conversationId))
                    .getId();
        });
    }

    /** The end of the run of dialogue, or of other messages, that starts at {@code from}. */
    private static int runEnd(List<ConversationMessage> messages, int from) {
        boolean dialogue = messages.get(from).isDialogue();
        int end = from + 1;
        while (end < messages.size() && messages.get(end).isDialogue() == dialogue) {
            end++;
        }
        return end;
    }

    /** Stores the run as turns, then the tool calls some of them made beside them; answers the side messages. */
    private int storeDialogue(TenantId tenant, UUID sessionId, List<ConversationMessage> run) {
        List<TurnView> stored = recorder.append(
                tenant,
                sessionId,
                run.stream()
                        .map(m -> new NewTurn(Role.fromWireName(m.role().wireName()), m.content()))
                        .toList(),
                TurnOrigin.LIVE);
        List<SideMessage> calls = new ArrayList<>();
        for (int i = 0; i < run.size(); i++) {
            if (run.get(i).hasToolCalls()) {
                calls.add(new SideMessage(
                        tenant.value(),
                        sessionId,
                        stored.get(i).seq(),
                        0,
                        "assistant",
                        null,
                        redactor.redact(
                                tenant, json.writeValueAsString(run.get(i).toolCalls())),
                        null,
                        null,
                        true));
            }
        }
        if (!calls.isEmpty()) {
            // The turns' own calls: written after them, with the session held as any writer holds it.
            transaction.executeWithoutResult(status -> {
                locks.lockedWithUser(tenant, sessionId);
                sideMessages.saveAll(calls);
            });
        }
        return calls.size();
    }

    private int storeSide(TenantId tenant, UUID sessionId, List<ConversationMessage> run) {
        transaction.executeWithoutResult(status -> {
            Session session = locks.lockedWithUser(tenant, sessionId).requireOpen();
            int afterSeq = turns.maxSeq(tenant.value(), sessionId);
            int ordinal = sideMessages.maxOrdinal(tenant.value(), sessionId, afterSeq) + 1;
            // Attached calls take ordinal 0 after their turn; a side message placed there comes after them.
            ordinal = Math.max(ordinal, 1);
            List<SideMessage> kept = new ArrayList<>();
            for (ConversationMessage m : run) {
                kept.add(new SideMessage(
                        tenant.value(),
                        sessionId,
                        afterSeq,
                        ordinal++,
                        m.role().wireName(),
                        redactor.redact(tenant, m.content()),
                        m.hasToolCalls() ? redactor.redact(tenant, json.writeValueAsString(m.toolCalls())) : null,
                        m.toolCallId(),
                        m.name(),
                        false));
            }
            sideMessages.saveAll(kept);
            session.touch();
        });
        return run.size();
    }

    /** A session's turns and side messages as one list of messages, in the order they were added. */
    private List<ConversationMessage> inOrder(List<Turn> sessionTurns, List<SideMessage> sides) {
        Map<Integer, List<SideMessage>> byTurn = sides.stream()
                .sorted(Comparator.comparingInt(SideMessage::getOrdinal))
                .collect(Collectors.groupingBy(SideMessage::getAfterSeq));
        List<ConversationMessage> out = new ArrayList<>();
        byTurn.getOrDefault(-1, List.of()).forEach(m -> out.add(message(m)));
        for (Turn turn : sessionTurns) {
            TurnView view = turn.view();
            List<SideMessage> after = byTurn.getOrDefault(view.seq(), List.of());
            List<ConversationMessage.ToolCall> calls = after.stream()
                    .filter(SideMessage::isAttached)
                    .findFirst()
                    .map(m -> toolCalls(m.getToolCalls()))
                    .orElse(null);
            out.add(new ConversationMessage(
                    ConversationMessage.MessageRole.fromWireName(view.role().wireName()),
                    view.content(),
                    calls,
                    null,
                    null));
            after.stream().filter(m -> !m.isAttached()).forEach(m -> out.add(message(m)));
        }
        return out;
    }

    private ConversationMessage message(SideMessage m) {
        return new ConversationMessage(
                ConversationMessage.MessageRole.fromWireName(m.getRole()),
                m.getContent(),
                toolCalls(m.getToolCalls()),
                m.getToolCallId(),
                m.getToolName());
    }

    private List<ConversationMessage.ToolCall> toolCalls(String stored) {
        return stored == null ? null : json.readValue(stored, TOOL_CALLS);
    }
}
