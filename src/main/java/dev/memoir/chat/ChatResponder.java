package dev.memoir.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.ChatStep;
import dev.memoir.llm.PromptTemplates;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.retrieval.Retrieval;
import dev.memoir.retrieval.SelfReflectiveRetriever;
import dev.memoir.session.NewTurn;
import dev.memoir.session.OpenSession;
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;
import dev.memoir.tenant.TenantId;
import dev.memoir.writing.MemoryJobs;

/**
 * One chat turn: store the user's message first (so that a failing model loses nothing), retrieve with
 * self-reflection, answer and decide whether to remember in a single model call, then store the reply and queue
 * the conditional memory.
 */
@Service
class ChatResponder {

    private final SessionService sessions;
    private final SelfReflectiveRetriever retriever;
    private final ChatModelClient model;
    private final PromptTemplates prompts;
    private final MemoryJobs memoryJobs;
    private final TransactionTemplate transaction;
    private final ChatProperties properties;

    ChatResponder(SessionService sessions, SelfReflectiveRetriever retriever, ChatModelClient model,
            PromptTemplates prompts, MemoryJobs memoryJobs, TransactionTemplate transaction,
            ChatProperties properties) {
        this.sessions = sessions;
        this.retriever = retriever;
        this.model = model;
        this.prompts = prompts;
        this.memoryJobs = memoryJobs;
        this.transaction = transaction;
        this.properties = properties;
    }

    ChatReply respond(TenantId tenant, UUID sessionId, String message) {
        OpenSession session = sessions.requireOpen(tenant, sessionId);
        TurnView userTurn = sessions.append(tenant, sessionId, List.of(new NewTurn(Role.USER, message))).getFirst();

        List<TurnView> recent = sessions.recentTurns(sessionId, properties.recentTurns());
        List<UUID> inPrompt = recent.stream().map(TurnView::id).toList();
        Retrieval retrieval = retriever.retrieve(session, message, inPrompt);

        ReplyDecision decision = ReplyDecision.from(
                        model.askJson(ChatStep.REPLY, replyPrompt(retrieval.memories(), recent),
                                ReplyDecision.JSON_SCHEMA))
                .orElseThrow(EmptyReplyException::new);
        boolean remembered = decision.remember() && session.settings().writes(MemoryKind.CONDITIONAL);

        TurnView assistantTurn = transaction.execute(status -> {
            TurnView stored = sessions.append(tenant, sessionId, List.of(new NewTurn(Role.ASSISTANT,
                    decision.reply()))).getFirst();
            if (remembered) {
                memoryJobs.queueConditionalMemory(userTurn.id());
            }
            return stored;
        });

        List<UsedMemory> used = retrieval.memories().stream()
                .map(m -> new UsedMemory(m.id(), m.kind(), m.text(), m.score()))
                .toList();
        return new ChatReply(decision.reply(), assistantTurn.id(), userTurn.id(), used, remembered);
    }

    private List<Message> replyPrompt(List<ScoredMemory> memories, List<TurnView> recent) {
        String memoryBlock = memories.isEmpty() ? "(nothing remembered yet)"
                : IntStream.range(0, memories.size())
                        .mapToObj(i -> (i + 1) + ". [" + memories.get(i).kind() + "] " + memories.get(i).text())
                        .collect(Collectors.joining("\n"));
        List<Message> messages = new ArrayList<>();
        messages.add(new SystemMessage(prompts.render("reply", Map.of("memories", memoryBlock))));
        for (TurnView turn : recent) {
            messages.add(turn.role() == Role.USER ? new UserMessage(turn.content())
                    : new AssistantMessage(turn.content()));
        }
        return messages;
    }
}
