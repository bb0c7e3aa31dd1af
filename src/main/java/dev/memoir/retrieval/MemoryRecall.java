package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.stereotype.Service;

import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.memory.SearchQuery;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.SessionRef;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;

/**
 * Everything a reply may draw on, for the kinds the session reads, in the order the prompt gives it: the user's
 * recursive summary, the memos the model chose (with the dialogue each rests on), then the records found by hybrid
 * search, narrowed either by self-reflection or, for sessions that rerank, by the learned reranker.
 */
@Service
public class MemoryRecall {

    private final MemoRetriever memos;
    private final SelfReflectiveRetriever records;
    private final Reranker reranker;
    private final SessionService sessions;
    private final MemorySearches searches;

    MemoryRecall(MemoRetriever memos, SelfReflectiveRetriever records, Reranker reranker,
            SessionService sessions, MemorySearches searches) {
        this.searches = searches;
        this.memos = memos;
        this.records = records;
        this.reranker = reranker;
        this.sessions = sessions;
    }

    public Retrieval recall(SessionRef session, String message, Collection<UUID> turnsInPrompt) {
        List<ScoredMemory> recalled = new ArrayList<>();
        Map<UUID, List<TurnView>> dialogues = Map.of();
        boolean readsRecursive = session.settings().reads(MemoryKind.RECURSIVE_SUMMARY);
        boolean readsMemos = session.settings().reads(MemoryKind.MEMO) && session.settings().topK(MemoryKind.MEMO) > 0;
        SearchQuery query = readsRecursive || readsMemos || session.settings().rerank() ? searches.query(message) : null;
        if (readsRecursive || readsMemos) {
            if (readsRecursive) {
                // One per user: the nearest is the one.
                recalled.addAll(searches.nearest(session.tenant(), session.userId(),
                        Set.of(MemoryKind.RECURSIVE_SUMMARY), query, 1, List.of()));
            }
            if (readsMemos) {
                List<ScoredMemory> chosen = memos.retrieve(session, message, query);
                recalled.addAll(chosen);
                dialogues = dialogues(chosen);
            }
        }
        Set<MemoryKind> recordKinds = RecordRetriever.readKinds(session);
        if (session.settings().rerank()) {
            List<ScoredMemory> candidates = searches.nearest(session.tenant(), session.userId(), recordKinds, query,
                    reranker.candidateCount(), turnsInPrompt);
            Reranker.Reranked reranked = reranker.rerank(session.tenant(), query.embedding(), candidates);
            recalled.addAll(reranked.shown());
            return new Retrieval(recalled, dialogues, 1, List.of(), Optional.of(reranked.trace()));
        }
        Retrieval found = records.retrieve(session, message, turnsInPrompt);
        recalled.addAll(found.memories());
        return new Retrieval(recalled, dialogues, found.searches(), found.keywords(), Optional.empty());
    }

    /** The chosen memos' dialogues, read in one query. */
    private Map<UUID, List<TurnView>> dialogues(List<ScoredMemory> memos) {
        List<UUID> turnIds = memos.stream().flatMap(memo -> memo.provenance().turnIds().stream()).distinct().toList();
        if (turnIds.isEmpty()) {
            return Map.of();
        }
        Map<UUID, TurnView> turns = sessions.turnsByIds(turnIds).stream()
                .collect(Collectors.toMap(TurnView::id, Function.identity()));
        return memos.stream().collect(Collectors.toMap(ScoredMemory::id, memo -> memo.provenance().turnIds().stream()
                .map(turns::get).filter(Objects::nonNull).toList(), (a, b) -> a));
    }
}
