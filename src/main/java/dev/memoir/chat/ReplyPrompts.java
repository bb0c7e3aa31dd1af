package dev.memoir.chat;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.stereotype.Component;

import dev.memoir.llm.PromptTemplates;
import dev.memoir.llm.TokenCounter;
import dev.memoir.retrieval.Retrieval;
import dev.memoir.session.Role;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;

/**
 * The reply step's prompt: the {@code reply} template with the recalled memory laid out in it, then the recent
 * dialogue verbatim, ending with the message being answered.
 */
@Component
class ReplyPrompts {

    private final SessionService sessions;
    private final PromptTemplates templates;
    private final TokenCounter tokens;
    private final ChatProperties properties;

    ReplyPrompts(SessionService sessions, PromptTemplates templates, TokenCounter tokens, ChatProperties properties) {
        this.sessions = sessions;
        this.templates = templates;
        this.tokens = tokens;
        this.properties = properties;
    }

    /** A reply prompt, and the memory laid out in it (what the reply's citations refer to). */
    record ReplyPrompt(MemoryPromptBuilder.MemoryPrompt memory, List<Message> messages) {
    }

    /**
     * The turns sent verbatim with the reply: the dialogue as it stood when {@code message} came (a concurrent
     * chat's later message is not this one's), within {@code memoir.chat.recent-turns} and its token budget.
     */
    List<TurnView> recentDialogue(TurnView message) {
        return RecentDialogue.within(sessions.turnsEndingWith(message.id(), properties.recentTurns()),
                properties.recentTurnsTokenBudget(), tokens::count);
    }

    ReplyPrompt lay(Retrieval recalled, List<TurnView> recent, int memoryTokenBudget) {
        MemoryPromptBuilder.MemoryPrompt memory = MemoryPromptBuilder.build(recalled, memoryTokenBudget, tokens);
        List<Message> messages = new ArrayList<>();
        messages.add(new SystemMessage(templates.render(ReplyDecision.STEP, Map.of("memories", memory.text(),
                "today", LocalDate.now(ZoneOffset.UTC).toString()))));
        for (TurnView turn : recent) {
            messages.add(turn.role() == Role.USER ? new UserMessage(turn.content())
                    : new AssistantMessage(turn.content()));
        }
        return new ReplyPrompt(memory, messages);
    }
}
