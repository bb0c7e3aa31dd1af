package dev.memoir.retrieval.layout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.session.api.Role;
import dev.memoir.session.api.TurnView;

/**
 * A ranking reordered to cover the arc of the dialogue: an utterance within a few turns of better-ranked ones of the
 * same session moves down, the more of them the further, so that a budget filled from the front reaches more
 * stretches of the dialogue; for a message about what the user brought up, the assistant's utterances also wait
 * for the user's, which say it in the user's words. Memories that record no single turn (notes, summaries, facts)
 * keep their place.
 */
final class DialogueSpread {

    private DialogueSpread() {}

    /**
     * @param turns     the turn each history memory records, by memory id (absent: not a single turn)
     * @param gap       how many turns apart two utterances of one session must be for both to go first (0: no
     *                  spreading)
     * @param userFirst whether the assistant's utterances wait for the user's: for a message about what the user
     *                  brought up, which the user's own words say
     */
    static List<ScoredMemory> of(List<ScoredMemory> ranked, Map<UUID, TurnView> turns, int gap, boolean userFirst) {
        if (!userFirst) {
            return spread(ranked, turns, gap);
        }
        List<ScoredMemory> users = new ArrayList<>();
        List<ScoredMemory> answers = new ArrayList<>();
        for (ScoredMemory memory : ranked) {
            TurnView turn = turns.get(memory.id());
            (turn != null && turn.role() != Role.USER ? answers : users).add(memory);
        }
        List<ScoredMemory> spread = spread(users, turns, gap);
        spread.addAll(spread(answers, turns, gap));
        return spread;
    }

    /**
     * Greedy: each next memory is the one whose rank, multiplied by one more than the number of memories already
     * taken within {@code gap} turns of it in its session, is lowest (ties: the better rank). The second utterance
     * of a stretch counts as if ranked twice as far down, the third three times: it still comes before a far worse
     * one (the answer to the question shown), but not before the rest of the arc.
     */
    private static List<ScoredMemory> spread(List<ScoredMemory> ranked, Map<UUID, TurnView> turns, int gap) {
        if (gap <= 0) {
            return new ArrayList<>(ranked);
        }
        List<ScoredMemory> left = new ArrayList<>(ranked);
        List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < ranked.size(); i++) {
            ranks.add(i + 1);
        }
        Map<UUID, List<Integer>> taken = new HashMap<>();
        List<ScoredMemory> spread = new ArrayList<>();
        while (!left.isEmpty()) {
            int best = 0;
            long bestScore = Long.MAX_VALUE;
            for (int i = 0; i < left.size(); i++) {
                long score =
                        (long) ranks.get(i) * (1 + near(turns.get(left.get(i).id()), taken, gap));
                if (score < bestScore) {
                    best = i;
                    bestScore = score;
                }
            }
            ScoredMemory chosen = left.remove(best);
            ranks.remove(best);
            TurnView turn = turns.get(chosen.id());
            if (turn != null) {
                taken.computeIfAbsent(turn.sessionId(), session -> new ArrayList<>())
                        .add(turn.seq());
            }
            spread.add(chosen);
        }
        return spread;
    }

    private static int near(TurnView turn, Map<UUID, List<Integer>> taken, int gap) {
        if (turn == null) {
            return 0;
        }
        int count = 0;
        for (int seq : taken.getOrDefault(turn.sessionId(), List.of())) {
            if (Math.abs(seq - turn.seq()) <= gap) {
                count++;
            }
        }
        return count;
    }
}
