package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Optional;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.memory.SearchQuery;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.OpenSession;

/**
 * Everything a reply may draw on, for the kinds the session reads, in the order the prompt gives it: the user's
 * recursive summary, the memos the model chose, then the records found by hybrid search, narrowed either by
 * self-reflection or, for sessions that rerank, by the learned reranker.
 */
@Service
public class MemoryRecall {

    private final MemoryStore store;
    private final MemoRetriever memos;
    private final SelfReflectiveRetriever records;
    private final Reranker reranker;

    MemoryRecall(MemoryStore store, MemoRetriever memos, SelfReflectiveRetriever records, Reranker reranker) {
        this.store = store;
        this.memos = memos;
        this.records = records;
        this.reranker = reranker;
    }

    public Retrieval recall(OpenSession session, String message, Collection<UUID> turnsInPrompt) {
        List<ScoredMemory> recalled = new ArrayList<>();
        boolean readsRecursive = session.settings().reads(MemoryKind.RECURSIVE_SUMMARY);
        boolean readsMemos = session.settings().reads(MemoryKind.MEMO) && session.settings().topK(MemoryKind.MEMO) > 0;
        SearchQuery query = readsRecursive || readsMemos || session.settings().rerank() ? store.query(message) : null;
        if (readsRecursive || readsMemos) {
            if (readsRecursive) {
                // One per user: the nearest is the one.
                recalled.addAll(store.nearest(session.tenant(), session.userId(),
                        Set.of(MemoryKind.RECURSIVE_SUMMARY), query, 1, List.of()));
            }
            if (readsMemos) {
                recalled.addAll(memos.retrieve(session, message, query));
            }
        }
        Set<MemoryKind> recordKinds = RecordRetriever.readKinds(session);
        if (session.settings().rerank()) {
            List<ScoredMemory> candidates = store.nearest(session.tenant(), session.userId(), recordKinds, query,
                    reranker.candidateCount(), turnsInPrompt);
            Reranker.Reranked reranked = reranker.rerank(session.tenant(), query.embedding(), candidates);
            recalled.addAll(reranked.shown());
            return new Retrieval(recalled, 1, List.of(), Optional.of(reranked.trace()));
        }
        Retrieval found = records.retrieve(session, message, turnsInPrompt);
        recalled.addAll(found.memories());
        return new Retrieval(recalled, found.searches(), found.keywords());
    }
}
