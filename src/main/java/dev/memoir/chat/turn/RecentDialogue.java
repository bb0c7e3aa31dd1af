package dev.memoir.chat.turn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToIntFunction;

import dev.memoir.session.api.TurnView;

/** The part of the current session sent verbatim with a reply: the newest turns that fit a token budget. */
final class RecentDialogue {

    private RecentDialogue() {}

    /**
     * The newest turns, oldest first, whose tokens add up to at most {@code budget}; the newest turn (the message
     * being answered) is always kept, whatever its size, and no older turn is kept once one did not fit, so the
     * dialogue sent has no holes.
     */
    static List<TurnView> within(List<TurnView> oldestFirst, int budget, ToIntFunction<String> tokens) {
        List<TurnView> kept = new ArrayList<>();
        int used = 0;
        for (int i = oldestFirst.size() - 1; i >= 0; i--) {
            TurnView turn = oldestFirst.get(i);
            int cost = tokens.applyAsInt(turn.content());
            if (!kept.isEmpty() && used + cost > budget) {
                break;
            }
            kept.add(turn);
            used += cost;
        }
        Collections.reverse(kept);
        return kept;
    }
}
