package dev.memoir.retrieval;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.memoir.memory.ContextSelection;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.reranker.RerankTrace;
import dev.memoir.session.TurnView;

/**
 * What retrieval gives the reply: the memories, best first, everything the prompt shows of them, and how they
 * were found.
 *
 * @param dialogues    each memo's dialogue: the turns it rests on that still exist, in dialogue order, by memo id
 * @param searches     how many searches ran (1 plus one per self-reflection round that asked for more)
 * @param keywords     the keywords self-reflection added to the query, in order
 * @param rerank       how the learned reranker ranked the candidates, when the session reranks
 * @param selection    how the prompt chooses among the memories: all of them in order until its budget is full, or
 *                     the few each kind retrieved
 * @param surroundings each history memory's turn with its neighbours in its session, in dialogue order, by memory
 *                     id (read for budget selection only)
 */
public record Retrieval(
        List<ScoredMemory> memories,
        Map<UUID, List<TurnView>> dialogues,
        int searches,
        List<String> keywords,
        Optional<RerankTrace> rerank,
        ContextSelection selection,
        Map<UUID, List<TurnView>> surroundings) {

    public Retrieval(
            List<ScoredMemory> memories,
            Map<UUID, List<TurnView>> dialogues,
            int searches,
            List<String> keywords,
            Optional<RerankTrace> rerank) {
        this(memories, dialogues, searches, keywords, rerank, ContextSelection.PER_KIND, Map.of());
    }

    Retrieval(List<ScoredMemory> memories, int searches, List<String> keywords) {
        this(memories, Map.of(), searches, keywords, Optional.empty());
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
