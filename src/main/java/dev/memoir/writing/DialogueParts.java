package dev.memoir.writing;

import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import dev.memoir.llm.TokenCounter;
import dev.memoir.session.DialogueFormat;
import dev.memoir.session.api.TurnView;

/**
 * Cuts a session's turns into consecutive parts that each fit one prompt: the room the step's prompt leaves in the
 * model's context, or memoir.writing.part-tokens when that is set and smaller.
 */
@Component
class DialogueParts {

    private final TokenCounter tokens;
    private final Integer partTokens;

    DialogueParts(TokenCounter tokens, DialogueProperties properties) {
        this.tokens = tokens;
        this.partTokens = properties.partTokens();
    }

    /** One part of a session: its turns, each line within the budget, and where the part starts. */
    record Part(int offset, List<TurnView> turns, List<String> lines) {}

    /**
     * Consecutive parts, in order, together holding every turn once, each turn written in {@code format} and
     * numbered by its position in the whole of {@code turns}. A part's lines (one token each for the line breaks
     * between them) add up to at most the budget, except that a part always holds at least one turn; a turn whose
     * line alone exceeds the budget is shortened.
     *
     * @param room the tokens the step's prompt has for the dialogue
     */
    List<Part> split(List<TurnView> turns, DialogueFormat format, int room) {
        int budget = partTokens == null ? room : Math.min(partTokens, room);
        List<Part> parts = new ArrayList<>();
        List<TurnView> current = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        int used = 0;
        int offset = 0;
        for (int i = 0; i < turns.size(); i++) {
            String text = tokens.truncate(format.entry(turns.get(i), i), budget);
            int cost = tokens.count(text) + 1;
            if (!current.isEmpty() && used + cost > budget) {
                parts.add(new Part(offset, List.copyOf(current), List.copyOf(lines)));
                offset = i;
                current.clear();
                lines.clear();
                used = 0;
            }
            current.add(turns.get(i));
            lines.add(text);
            used += cost;
        }
        if (!current.isEmpty()) {
            parts.add(new Part(offset, List.copyOf(current), List.copyOf(lines)));
        }
        return parts;
    }
}
