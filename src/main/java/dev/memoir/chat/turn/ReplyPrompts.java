package dev.memoir.chat.turn;

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

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.ContextWindow;
import dev.memoir.llm.PromptTemplates;
import dev.memoir.llm.TokenCounter;
import dev.memoir.retrieval.ReplyContext;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * The reply step's prompt: the {@code reply} template with the recalled memory laid out in it, then the recent
 * dialogue verbatim, ending with the message being answered, all within the model's context. What the template
 * leaves of the context goes to the recent dialogue ({@code memoir.chat.recent-turns-token-budget} at most) and
 * the memory (the session's {@code promptTokenBudget} at most); when both would not fit, each gets its share in
 * proportion to its budget, and room the dialogue does not use goes to the memory.
 */
@Component
class ReplyPrompts {

    /** The least room a reply prompt keeps for memory, however long the message. */
    static final int MIN_MEMORY_TOKENS = 256;

    private static final int COUNTING_SLACK = 16;

    private final TurnReader turnReader;
    private final PromptTemplates templates;
    private final TokenCounter tokens;
    private final ChatProperties properties;
    private final ContextWindow window;

    ReplyPrompts(
            TurnReader turnReader,
            PromptTemplates templates,
            TokenCounter tokens,
            ChatProperties properties,
            ContextWindow window) {
        this.turnReader = turnReader;
        this.templates = templates;
        this.tokens = tokens;
        this.properties = properties;
        this.window = window;
    }

    /** A reply prompt, the memory laid out in it (what the reply's citations refer to), and its schema's values. */
    record ReplyPrompt(ReplyContext memory, List<Message> messages, Map<String, String> schemaValues) {}

    /** The recent dialogue sent with a reply, and the tokens left for its memory. */
    record Layout(String today, List<TurnView> recent, int memoryBudget) {}

    /**
     * Refuses a message the model could not read with at least a little memory beside it, before it is stored:
     * answering a shortened message would answer something the user did not say.
     */
    void requireFits(String message) {
        int limit = room(today()) - MIN_MEMORY_TOKENS;
        int size = cost(message);
        if (size > limit) {
            throw new MessageTooLongException(size, limit, window.contextTokens());
        }
    }

    /**
     * The turns sent verbatim with the reply, the dialogue as it stood when {@code message} came (a concurrent
     * chat's later message is not this one's), within {@code memoir.chat.recent-turns} and its share of the
     * context; and the memory's share.
     */
    Layout layout(TenantId tenant, TurnView message, int memoryBudget) {
        String today = today();
        int room = room(today);
        int dialogueBudget = properties.recentTurnsTokenBudget();
        int memoryShare = memoryBudget + dialogueBudget <= room
                ? memoryBudget
                : (int) ((long) room * memoryBudget / (memoryBudget + dialogueBudget));
        List<TurnView> recent = RecentDialogue.within(
                turnReader.turnsEndingWith(tenant, message.id(), properties.recentTurns()),
                Math.min(dialogueBudget, room - memoryShare),
                content -> cost(QuotedText.inline(content)));
        int used = recent.stream().mapToInt(this::cost).sum();
        return new Layout(today, recent, Math.max(0, Math.min(memoryBudget, room - used)));
    }

    /** The reply prompt with the memory laid out for it (within the layout's memory budget) and the recent dialogue. */
    ReplyPrompt lay(ReplyContext memory, Layout layout) {
        List<Message> messages = new ArrayList<>();
        messages.add(new SystemMessage(
                templates.render(ReplyDecision.STEP, Map.of("memories", memory.text(), "today", layout.today()))));
        List<TurnView> recent = layout.recent();
        for (int i = 0; i < recent.size(); i++) {
            TurnView turn = recent.get(i);
            // The earlier turns are stored text: no delimiter of a chat template or of Memoir's in them reaches the
            // model as one. The user's latest message is theirs to send as they wrote it.
            String content = i == recent.size() - 1 ? turn.content() : QuotedText.inline(turn.content());
            messages.add(turn.role() == Role.USER ? new UserMessage(content) : new AssistantMessage(content));
        }
        return new ReplyPrompt(
                memory,
                messages,
                Map.of("entries", Integer.toString(Math.max(1, memory.numbered().size()))));
    }

    /**
     * The context left by the system prompt without its memory: for the memory and the dialogue's messages. The
     * memory is counted in parts (entries, headers) and the prompt as a whole, which can differ by a token here and
     * there: a few are kept back for that.
     */
    private int room(String today) {
        return window.room(ReplyDecision.STEP, Map.of("today", today)) - COUNTING_SLACK;
    }

    /** A turn's tokens as one message of the prompt. */
    /** A turn as it is sent: an earlier one quoted, which may make it a little longer. */
    private int cost(TurnView turn) {
        return cost(QuotedText.inline(turn.content()));
    }

    private int cost(String content) {
        return tokens.count(content) + ContextWindow.MESSAGE_OVERHEAD;
    }

    private static String today() {
        return LocalDate.now(ZoneOffset.UTC).toString();
    }
}
