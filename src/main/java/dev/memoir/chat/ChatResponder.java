package dev.memoir.chat;

import java.time.LocalDate;
import java.time.ZoneOffset;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptTemplates;
import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.reflection.Episodes;
import dev.memoir.reflection.RecursiveReasoner;
import dev.memoir.reflection.ReplyTraces;
import dev.memoir.reflection.Reranker;
import dev.memoir.retrieval.Retrieval;
import dev.memoir.retrieval.MemoryRecall;
import dev.memoir.session.NewTurn;
import dev.memoir.session.OpenSession;
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;
import dev.memoir.tenant.TenantId;
import dev.memoir.writing.MemoryJobs;

/**
 * One chat turn: store the user's message first (so that a failing model loses nothing), recall memory (recursive
 * summary, chosen memos, self-reflective dense retrieval), lay it out within the token budget, answer and decide
 * whether to remember and which memories it used in a single model call, then store the reply, queue the
 * conditional memory and, for sessions that rerank, store the citations as the reranker's feedback.
 */
@Service
class ChatResponder {

    private final SessionService sessions;
    private final MemoryRecall recall;
    private final MemoryPromptBuilder memoryPrompt;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final MemoryJobs memoryJobs;
    private final Reranker reranker;
    private final RecursiveReasoner reasoner;
    private final ReplyTraces traces;
    private final Episodes episodes;
    private final TransactionTemplate transaction;
    private final ChatProperties properties;
    private final TokenCounter tokens;

    ChatResponder(SessionService sessions, MemoryRecall recall, MemoryPromptBuilder memoryPrompt,
            ChatModelClient model, PromptTemplates prompts, MemoryJobs memoryJobs, Reranker reranker,
            RecursiveReasoner reasoner, ReplyTraces traces, Episodes episodes, TransactionTemplate transaction,
            ChatProperties properties, TokenCounter tokens) {
        this.tokens = tokens;
        this.reranker = reranker;
        this.reasoner = reasoner;
        this.traces = traces;
        this.episodes = episodes;
        this.sessions = sessions;
        this.recall = recall;
        this.memoryPrompt = memoryPrompt;
        this.model = model;
        this.prompts = prompts;
        this.memoryJobs = memoryJobs;
        this.transaction = transaction;
        this.properties = properties;
    }

    ChatReply respond(TenantId tenant, UUID sessionId, String message, Boolean reasoning) {
        return answer(prepare(tenant, sessionId, message, reasoning));
    }

    /**
     * A chat turn up to the reply call: the user's message is stored, memory recalled and the reply prompt laid
     * out (for a reasoned reply, only the message is stored: the reasoning recalls as it goes).
     */
    record PreparedTurn(TenantId tenant, OpenSession session, TurnView userTurn, boolean reasoned,
            Retrieval retrieval, MemoryPromptBuilder.MemoryPrompt memory, List<Message> prompt) {
    }

    /**
     * Stores the user's message and prepares its reply. Everything that can refuse the turn (an unknown or closed
     * session) or fail before the reply call (a recall step's model call) happens here.
     */
    PreparedTurn prepare(TenantId tenant, UUID sessionId, String message, Boolean reasoning) {
        OpenSession session = sessions.requireOpen(tenant, sessionId);
        TurnView userTurn = sessions.append(tenant, sessionId, List.of(new NewTurn(Role.USER, message))).getFirst();
        if (reasoning != null ? reasoning : session.settings().reasoning()) {
            return new PreparedTurn(tenant, session, userTurn, true, null, null, List.of());
        }

        // The dialogue as it stood when this message came: a concurrent chat's later message is not this one's.
        List<TurnView> recent = RecentDialogue.within(sessions.turnsEndingWith(userTurn.id(), properties.recentTurns()),
                properties.recentTurnsTokenBudget(), tokens::count);
        List<UUID> inPrompt = recent.stream().map(TurnView::id).toList();
        Retrieval retrieval = recall.recall(session, message, inPrompt);
        MemoryPromptBuilder.MemoryPrompt memory = memoryPrompt.build(retrieval.memories(),
                session.settings().promptTokenBudget());
        return new PreparedTurn(tenant, session, userTurn, false, retrieval, memory,
                replyPrompt(memory.text(), recent));
    }

    /** Asks the model for the prepared turn's reply in one answer, and stores it. */
    ChatReply answer(PreparedTurn turn) {
        if (turn.reasoned()) {
            return reasonedReply(turn.tenant(), turn.session(), turn.userTurn());
        }
        return store(turn, model.ask(ReplyDecision.STEP, turn.prompt()));
    }

    /**
     * Like {@link #answer}, with the model's answer streamed: {@code replyText} gets the reply's text in pieces as
     * the model writes it (their concatenation is the stored reply), on the calling thread, before the turn is
     * stored. The model's answer is then read as a whole (remember, citations) and stored as {@link #answer} does.
     * A reasoned reply is not written in one answer: its text comes whole, once it is stored.
     */
    ChatReply answerStreaming(PreparedTurn turn, Consumer<String> replyText) {
        if (turn.reasoned()) {
            ChatReply reply = reasonedReply(turn.tenant(), turn.session(), turn.userTurn());
            replyText.accept(reply.reply());
            return reply;
        }
        StreamedReply streamed = new StreamedReply(replyText);
        ReplyDecision decision = model.stream(ReplyDecision.STEP, turn.prompt(), streamed::accept);
        streamed.finish(decision.reply());
        return store(turn, decision);
    }

    /** Stores the reply with what its answer decided: the conditional memory to write, the trace, the citations. */
    private ChatReply store(PreparedTurn turn, ReplyDecision decision) {
        TenantId tenant = turn.tenant();
        OpenSession session = turn.session();
        TurnView userTurn = turn.userTurn();
        Retrieval retrieval = turn.retrieval();
        MemoryPromptBuilder.MemoryPrompt memory = turn.memory();
        boolean remembered = decision.remember() && session.settings().writes(MemoryKind.CONDITIONAL);
        Set<UUID> cited = memory.cited(decision.citations()).stream().map(ScoredMemory::id)
                .collect(Collectors.toSet());

        TurnView assistantTurn = transaction.execute(status -> {
            TurnView stored = sessions.appendReply(tenant, session.id(), userTurn.id(), decision.reply());
            if (remembered) {
                memoryJobs.queueConditionalMemory(userTurn);
            }
            traces.record(stored.id(), memory.included(), List.copyOf(cited));
            retrieval.rerank().ifPresent(trace -> {
                Set<UUID> given = memory.included().stream().map(ScoredMemory::id).collect(Collectors.toSet());
                reranker.recordFeedback(tenant, session.userId(), stored.id(), trace,
                        trace.shownIds().stream().filter(given::contains).toList(),
                        trace.shownIds().stream().filter(cited::contains).toList());
            });
            return stored;
        });

        List<UsedMemory> used = memory.included().stream()
                .map(m -> new UsedMemory(m.id(), m.kind(), m.topic(), m.text(), m.score(), cited.contains(m.id())))
                .toList();
        return new ChatReply(decision.reply(), assistantTurn.id(), userTurn.id(), used, remembered, null);
    }

    /**
     * A reply by recursive reasoning over memory (R^3): the model searches step by step until it can answer. The
     * trace becomes the first trial of an episode that the user's feedback can continue.
     */
    private ChatReply reasonedReply(TenantId tenant, OpenSession session, TurnView userTurn) {
        List<UUID> inView = sessions.turnsEndingWith(userTurn.id(), properties.recentTurns()).stream()
                .map(TurnView::id).toList();
        RecursiveReasoner.Reasoned reasoned = reasoner.reason(tenant, session.userId(), userTurn.content(),
                List.of(), 1, inView);
        String answer = reasoned.trial().inference().isBlank() ? "I could not work that out from what I remember."
                : reasoned.trial().inference();
        record Stored(TurnView turn, UUID episodeId) {
        }
        Stored stored = transaction.execute(status -> {
            TurnView turn = sessions.appendReply(tenant, session.id(), userTurn.id(), answer);
            traces.record(turn.id(), reasoned.memories(), List.of());
            UUID episodeId = episodes.startWithReasonedReply(tenant, session.userId(), session.id(), userTurn.id(),
                    turn.id(), userTurn.content(), reasoned.trial());
            return new Stored(turn, episodeId);
        });
        List<UsedMemory> used = reasoned.memories().stream()
                .map(m -> new UsedMemory(m.id(), m.kind(), m.topic(), m.text(), m.score(), false))
                .toList();
        return new ChatReply(answer, stored.turn().id(), userTurn.id(), used, false, stored.episodeId());
    }

    private List<Message> replyPrompt(String memoryBlock, List<TurnView> recent) {
        List<Message> messages = new ArrayList<>();
        messages.add(new SystemMessage(prompts.render(ReplyDecision.STEP, Map.of("memories", memoryBlock,
                "today", LocalDate.now(ZoneOffset.UTC).toString()))));
        for (TurnView turn : recent) {
            messages.add(turn.role() == Role.USER ? new UserMessage(turn.content())
                    : new AssistantMessage(turn.content()));
        }
        return messages;
    }
}
