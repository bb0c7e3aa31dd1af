package dev.memoir.retrieval;

import java.util.List;
import java.util.Optional;

import dev.memoir.memory.ScoredMemory;
import dev.memoir.reranker.RerankTrace;

/**
 * What retrieval gives the reply: the memories, best first, and how it found them.
 *
 * @param searches how many searches ran (1 plus one per self-reflection round that asked for more)
 * @param keywords the keywords self-reflection added to the query, in order
 * @param rerank   how the learned reranker ranked the candidates, when the session reranks
 */
public record Retrieval(List<ScoredMemory> memories, int searches, List<String> keywords,
        Optional<RerankTrace> rerank) {

    public Retrieval(List<ScoredMemory> memories, int searches, List<String> keywords) {
        this(memories, searches, keywords, Optional.empty());
    }
}
