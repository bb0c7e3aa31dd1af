package dev.memoir.retrieval.layout;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.Trust;
import dev.memoir.session.api.TurnView;

/**
 * What a reply's memory is laid out from: the memories recalled, in the order the layout should consider them, and
 * what the prompt shows with them.
 *
 * @param memories     the recursive summary and the memos chosen (pinned), then the records, best first
 * @param dialogues    each memo's dialogue: the turns it rests on that still exist, in dialogue order, by memo id
 * @param surroundings each history memory's turn with its neighbours in its session, in dialogue order, by memory
 *                     id (read for the budget layout only)
 * @param instructions the user's standing instructions and preferences, those nearest to the message first
 * @param message      the message the reply answers
 */
public record Recalled(
        List<ScoredMemory> memories,
        Map<UUID, List<TurnView>> dialogues,
        Map<UUID, List<TurnView>> surroundings,
        List<ScoredMemory> instructions,
        String message) {

    /**
     * Without what is trusted less than {@code minimum} (null: as it is): the memories, and the turns shown beside
     * them, so that a session's or a context request's minTrust holds for every line the layout shows.
     */
    public Recalled trustedAtLeast(Trust minimum) {
        if (minimum == null) {
            return this;
        }
        return new Recalled(
                trusted(memories, minimum),
                trustedTurns(dialogues, minimum),
                trustedTurns(surroundings, minimum),
                trusted(instructions, minimum),
                message);
    }

    private static List<ScoredMemory> trusted(List<ScoredMemory> memories, Trust minimum) {
        return memories.stream()
                .filter(m ->
                        m.provenance().trust() != null && m.provenance().trust().atLeast(minimum))
                .toList();
    }

    private static Map<UUID, List<TurnView>> trustedTurns(Map<UUID, List<TurnView>> turns, Trust minimum) {
        Map<UUID, List<TurnView>> kept = new LinkedHashMap<>();
        turns.forEach((id, list) -> kept.put(
                id, list.stream().filter(t -> t.trust().atLeast(minimum)).toList()));
        return kept;
    }

    /** The dialogue a memo rests on; empty for other memories. */
    public List<TurnView> dialogueOf(ScoredMemory memory) {
        return dialogues.getOrDefault(memory.id(), List.of());
    }

    /** A history memory's turn with its neighbours, in dialogue order; empty for other memories. */
    public List<TurnView> surroundingsOf(ScoredMemory memory) {
        return surroundings.getOrDefault(memory.id(), List.of());
    }
}
