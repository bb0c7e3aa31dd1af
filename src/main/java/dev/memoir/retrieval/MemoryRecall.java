package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.stereotype.Service;

import dev.memoir.memory.ContextSelection;
import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.memory.SearchQuery;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.SessionRef;
import dev.memoir.session.SessionService;
import dev.memoir.session.TurnView;
import dev.memoir.tenant.TenantId;

/**
 * Everything a reply may draw on, for the kinds the session reads, in the order the prompt gives it: the user's
 * recursive summary, the memos the model chose (with the dialogue each rests on), then the records found by hybrid
 * search. With the budget selection (the default) the records are one ranking over every kind, ordered by
 * self-reflection or the reranker, each utterance with its neighbours, and the prompt's token budget decides how
 * many are shown; with the per-kind selection (the papers') they are the top K of each kind, narrowed by
 * self-reflection or the reranker.
 */
@Service
public class MemoryRecall {

    private final MemoRetriever memos;
    private final SelfReflectiveRetriever records;
    private final Reranker reranker;
    private final SessionService sessions;
    private final MemorySearches searches;
    private final BudgetContextRetriever budgeted;
    private final ContextProperties context;

    MemoryRecall(
            MemoRetriever memos,
            SelfReflectiveRetriever records,
            Reranker reranker,
            SessionService sessions,
            MemorySearches searches,
            BudgetContextRetriever budgeted,
            ContextProperties context) {
        this.searches = searches;
        this.budgeted = budgeted;
        this.context = context;
        this.memos = memos;
        this.records = records;
        this.reranker = reranker;
        this.sessions = sessions;
    }

    public Retrieval recall(SessionRef session, String message, Collection<UUID> turnsInPrompt) {
        List<ScoredMemory> recalled = new ArrayList<>();
        Map<UUID, List<TurnView>> dialogues = Map.of();
        boolean readsRecursive = session.settings().reads(MemoryKind.RECURSIVE_SUMMARY);
        boolean readsMemos =
                session.settings().reads(MemoryKind.MEMO) && session.settings().topK(MemoryKind.MEMO) > 0;
        boolean budget = session.settings().contextSelection() == ContextSelection.BUDGET;
        SearchQuery query =
                budget || readsRecursive || readsMemos || session.settings().rerank() ? searches.query(message) : null;
        if (readsRecursive || readsMemos) {
            if (readsRecursive) {
                // One per user: the nearest is the one.
                recalled.addAll(searches.nearest(
                        session.tenant(), session.userId(), Set.of(MemoryKind.RECURSIVE_SUMMARY), query, 1, List.of()));
            }
            if (readsMemos) {
                List<ScoredMemory> chosen = memos.retrieve(session, message, query);
                recalled.addAll(chosen);
                dialogues = dialogues(session.tenant(), chosen);
            }
        }
        if (budget) {
            BudgetContextRetriever.Ranked ranked = budgeted.retrieve(session, message, query, turnsInPrompt);
            recalled.addAll(ranked.memories());
            return new Retrieval(
                    recalled,
                    dialogues,
                    ranked.searches(),
                    ranked.keywords(),
                    ranked.rerank(),
                    ContextSelection.BUDGET,
                    surroundings(session, ranked.memories(), turnsInPrompt));
        }
        Set<MemoryKind> recordKinds = RecordRetriever.readKinds(session);
        if (session.settings().rerank()) {
            List<ScoredMemory> candidates = searches.nearest(
                    session.tenant(), session.userId(), recordKinds, query, reranker.candidateCount(), turnsInPrompt);
            Reranker.Reranked reranked = reranker.rerank(session.tenant(), query.embedding(), candidates);
            recalled.addAll(reranked.shown());
            return new Retrieval(recalled, dialogues, 1, List.of(), Optional.of(reranked.trace()));
        }
        Retrieval found = records.retrieve(session, message, turnsInPrompt);
        recalled.addAll(found.memories());
        return new Retrieval(recalled, dialogues, found.searches(), found.keywords(), Optional.empty());
    }

    /**
     * Each history memory's turn with its neighbours, read in one query, by memory id; a neighbour the prompt sends
     * verbatim anyway (the recent dialogue) is left out.
     */
    private Map<UUID, List<TurnView>> surroundings(
            SessionRef session, List<ScoredMemory> records, Collection<UUID> turnsInPrompt) {
        Map<UUID, UUID> memoryOfTurn = new HashMap<>();
        for (ScoredMemory memory : records) {
            if (memory.kind() == MemoryKind.HISTORY
                    && memory.provenance().turnIds().size() == 1) {
                memoryOfTurn.putIfAbsent(memory.provenance().turnIds().getFirst(), memory.id());
            }
        }
        if (memoryOfTurn.isEmpty()) {
            return Map.of();
        }
        Map<UUID, List<TurnView>> around = new HashMap<>();
        sessions.turnsAround(session.tenant(), memoryOfTurn.keySet(), context.neighbours())
                .forEach((turnId, turns) -> around.put(
                        memoryOfTurn.get(turnId),
                        turns.stream()
                                .filter(turn -> turn.id().equals(turnId) || !turnsInPrompt.contains(turn.id()))
                                .toList()));
        return around;
    }

    /** The chosen memos' dialogues, read in one query. */
    private Map<UUID, List<TurnView>> dialogues(TenantId tenant, List<ScoredMemory> memos) {
        List<UUID> turnIds = memos.stream()
                .flatMap(memo -> memo.provenance().turnIds().stream())
                .distinct()
                .toList();
        if (turnIds.isEmpty()) {
            return Map.of();
        }
        Map<UUID, TurnView> turns = sessions.turnsByIds(tenant, turnIds).stream()
                .collect(Collectors.toMap(TurnView::id, Function.identity()));
        return memos.stream()
                .collect(Collectors.toMap(
                        ScoredMemory::id,
                        memo -> memo.provenance().turnIds().stream()
                                .map(turns::get)
                                .filter(Objects::nonNull)
                                .toList(),
                        (a, b) -> a));
    }
}
