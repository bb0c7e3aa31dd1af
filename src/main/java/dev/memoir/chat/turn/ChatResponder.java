package dev.memoir.chat.turn;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.usage.UsageScope;
import dev.memoir.feedback.ReplyOutcomes;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.retrieval.ReplyContext;
import dev.memoir.retrieval.ReplyMemory;
import dev.memoir.session.SessionService;
import dev.memoir.session.api.NewTurn;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * One chat turn, in three stages. {@link #prepare}: store the user's message first (so that a failing model loses
 * nothing), recall memory and lay out the reply prompt. {@link #answer} or {@link #answerStreaming}: one model call
 * writes the reply, judges whether the message is worth remembering and cites the memories it used (a reasoned
 * reply is {@link ReasonedReply}'s instead). {@code store}: in one transaction, the reply (whose event queues the
 * conditional memory) and what feedback learning keeps of it ({@link ReplyOutcomes}).
 */
@Service
public class ChatResponder {

    private final SessionService sessions;
    private final ReplyMemory replyMemory;
    private final ReplyPrompts replyPrompts;
    private final ChatModelClient model;
    private final ReasonedReply reasonedReply;
    private final ReplyOutcomes outcomes;
    private final TransactionTemplate transaction;

    ChatResponder(
            SessionService sessions,
            ReplyMemory replyMemory,
            ReplyPrompts replyPrompts,
            ChatModelClient model,
            ReasonedReply reasonedReply,
            ReplyOutcomes outcomes,
            TransactionTemplate transaction) {
        this.sessions = sessions;
        this.replyMemory = replyMemory;
        this.replyPrompts = replyPrompts;
        this.model = model;
        this.reasonedReply = reasonedReply;
        this.outcomes = outcomes;
        this.transaction = transaction;
    }

    public ChatReply respond(TenantId tenant, UUID sessionId, String message, Boolean reasoning) {
        return respond(tenant, sessionId, message, reasoning, TurnOrigin.LIVE);
    }

    /** As above, for a message that reached Memoir another way than from its client (an MCP tool's). */
    public ChatReply respond(TenantId tenant, UUID sessionId, String message, Boolean reasoning, TurnOrigin origin) {
        return answer(prepare(tenant, sessionId, message, reasoning, origin));
    }

    /**
     * A chat turn up to the reply call: the user's message is stored, memory recalled and the reply prompt laid
     * out (for a reasoned reply, only the message is stored: the reasoning recalls as it goes).
     */
    public record PreparedTurn(
            TenantId tenant,
            SessionRef session,
            TurnView userTurn,
            boolean reasoned,
            ReplyPrompts.ReplyPrompt prompt) {}

    /**
     * Stores the user's message and prepares its reply. Everything that can refuse the turn (an unknown or closed
     * session) or fail before the reply call (a recall step's model call) happens here.
     */
    public PreparedTurn prepare(TenantId tenant, UUID sessionId, String message, Boolean reasoning) {
        return prepare(tenant, sessionId, message, reasoning, TurnOrigin.LIVE);
    }

    private PreparedTurn prepare(
            TenantId tenant, UUID sessionId, String message, Boolean reasoning, TurnOrigin origin) {
        SessionRef session = sessions.requireOpen(tenant, sessionId);
        try (UsageScope scope = usageOf(tenant, session)) {
            return prepare(tenant, session, message, reasoning, origin);
        }
    }

    private PreparedTurn prepare(
            TenantId tenant, SessionRef session, String message, Boolean reasoning, TurnOrigin origin) {
        UUID sessionId = session.id();
        replyPrompts.requireFits(message);
        TurnView userTurn = sessions.append(tenant, sessionId, List.of(new NewTurn(Role.USER, message)), origin)
                .getFirst();
        if (reasoning != null ? reasoning : session.settings().reasoning()) {
            return new PreparedTurn(tenant, session, userTurn, true, null);
        }
        ReplyPrompts.Layout layout =
                replyPrompts.layout(tenant, userTurn, session.settings().promptTokenBudget());
        // The stored turn, secrets masked, is what the memory is searched with and the model reads.
        ReplyContext memory = replyMemory.contextFor(
                session,
                userTurn.content(),
                layout.recent().stream().map(TurnView::id).toList(),
                layout.memoryBudget());
        return new PreparedTurn(tenant, session, userTurn, false, replyPrompts.lay(memory, layout));
    }

    /** Asks the model for the prepared turn's reply in one answer, and stores it. */
    ChatReply answer(PreparedTurn turn) {
        try (UsageScope scope = usageOf(turn.tenant(), turn.session())) {
            return answerInScope(turn);
        }
    }

    private ChatReply answerInScope(PreparedTurn turn) {
        if (turn.reasoned()) {
            return reasonedReply.answer(turn.session(), turn.userTurn());
        }
        return store(
                turn,
                model.ask(
                        ReplyDecision.STEP,
                        turn.prompt().messages(),
                        turn.prompt().schemaValues()));
    }

    /**
     * Like {@link #answer}, with the model's answer streamed: {@code replyText} gets the reply's text in pieces as
     * the model writes it (their concatenation is the stored reply), on the calling thread, before the turn is
     * stored. The model's answer is then read as a whole (remember, citations) and stored as {@link #answer} does.
     * A reasoned reply is not written in one answer: its text comes whole, once it is stored.
     */
    ChatReply answerStreaming(PreparedTurn turn, Consumer<String> replyText) {
        // Answered on the task executor's thread: the request's scope is not there.
        try (UsageScope scope = usageOf(turn.tenant(), turn.session())) {
            return answerStreamingInScope(turn, replyText);
        }
    }

    private ChatReply answerStreamingInScope(PreparedTurn turn, Consumer<String> replyText) {
        if (turn.reasoned()) {
            ChatReply reply = reasonedReply.answer(turn.session(), turn.userTurn());
            replyText.accept(reply.reply());
            return reply;
        }
        StreamedReply streamed = new StreamedReply(replyText);
        ChatModelClient.Answered<ReplyDecision> answered = model.stream(
                ReplyDecision.STEP, turn.prompt().messages(), turn.prompt().schemaValues(), streamed::accept);
        streamed.finish(answered.answer().reply());
        return store(turn, answered);
    }

    /** The turn's model requests are its user's, in its session (usage). */
    private static UsageScope usageOf(TenantId tenant, SessionRef session) {
        return UsageScope.open(tenant.value(), session.userId(), session.id());
    }

    /** Stores the reply with what its answer decided, and records its outcome for learning. */
    private ChatReply store(PreparedTurn turn, ChatModelClient.Answered<ReplyDecision> answered) {
        ReplyDecision decision = answered.answer();
        SessionRef session = turn.session();
        ReplyContext memory = turn.prompt().memory();
        List<UUID> cited = memory.cited(decision.citations()).stream()
                .map(ScoredMemory::id)
                .toList();
        TurnView reply = transaction.execute(status -> {
            TurnView stored = sessions.appendReply(
                    turn.tenant(), session.id(), turn.userTurn().id(), decision.reply(), decision.remember());
            outcomes.record(session, stored.id(), memory.included(), cited, memory.rerank());
            return stored;
        });

        boolean remembered = decision.remember() && session.settings().writes(MemoryKind.CONDITIONAL);
        List<UsedMemory> used = memory.included().stream()
                .map(m -> UsedMemory.of(m, cited.contains(m.id())))
                .toList();
        return new ChatReply(
                decision.reply(), reply.id(), turn.userTurn().id(), used, remembered, null, answered.model());
    }
}
