package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.ContextSelection;
import dev.memoir.memory.MemoryQuarantine;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.reranker.RerankTrace;
import dev.memoir.reranker.Reranker;
import dev.memoir.retrieval.layout.BudgetedLayout;
import dev.memoir.retrieval.layout.MemoryPrompt;
import dev.memoir.retrieval.layout.OverviewQuestion;
import dev.memoir.retrieval.layout.Recalled;
import dev.memoir.session.TurnReader;
import dev.memoir.session.api.SessionRef;
import dev.memoir.session.api.TurnView;

/**
 * The reply context filled to its token budget (the default): one hybrid search over every record kind the session
 * reads, so that every kind competes in one fused ranking, ordered then by the learned reranker (sessions that
 * rerank) or by self-reflection, which only orders and adds (the memories it names go first, its keywords' search is
 * fused in, nothing found is dropped: a small model naming one memory, or the wrong one, would otherwise remove the
 * evidence search found). Each utterance comes with its neighbours, and {@link BudgetedLayout} lays the ranking out
 * until the budget is full.
 */
@Component
class BudgetedReplyContext implements ReplyContextBuilder {

    private final MemorySearches searches;
    private final PinnedMemories pinned;
    private final SelfReflection reflection;
    private final Reranker reranker;
    private final TurnReader turnReader;
    private final ContextProperties properties;
    private final TokenCounter tokens;
    private final MemoryQuarantine quarantine;

    BudgetedReplyContext(
            MemorySearches searches,
            PinnedMemories pinned,
            SelfReflection reflection,
            Reranker reranker,
            TurnReader turnReader,
            ContextProperties properties,
            TokenCounter tokens,
            MemoryQuarantine quarantine) {
        this.quarantine = quarantine;
        this.searches = searches;
        this.pinned = pinned;
        this.reflection = reflection;
        this.reranker = reranker;
        this.turnReader = turnReader;
        this.properties = properties;
        this.tokens = tokens;
    }

    @Override
    public ContextSelection selection() {
        return ContextSelection.BUDGET;
    }

    @Override
    public ReplyContext build(SessionRef session, String message, Collection<UUID> turnsInPrompt, int tokenBudget) {
        SearchQuery query = searches.query(message);
        PinnedMemories.Pinned pins = pinned.recall(session, message, query, turnsInPrompt);
        Set<MemoryKind> kinds = RecordRetriever.readKinds(session);
        // A message about the arc of the dialogue is shown many short openings: it gets more candidates to draw on.
        int candidates = OverviewQuestion.asks(message) ? properties.overviewCandidates() : properties.candidates();
        List<ScoredMemory> found = searches.nearest(
                session.tenant(),
                session.userId(),
                kinds,
                query,
                candidates,
                turnsInPrompt,
                session.settings().minTrust());
        List<ScoredMemory> ranking;
        int searchCount = 1;
        List<String> keywords = List.of();
        Optional<RerankTrace> rerank = Optional.empty();
        if (session.settings().rerank()) {
            Reranker.Reranked ordered = reranker.order(session.tenant(), query.embedding(), found);
            ranking = ordered.shown();
            rerank = Optional.of(ordered.trace());
        } else {
            SelfReflection.Reflected reflected = reflection.reflect(
                    session,
                    message,
                    found,
                    properties.reflectionShown(),
                    extended -> searches.nearest(
                            session.tenant(),
                            session.userId(),
                            kinds,
                            searches.query(extended),
                            candidates,
                            turnsInPrompt,
                            session.settings().minTrust()));
            ranking = namedFirst(reflected.named(), reflected.ranking());
            searchCount = reflected.searches();
            keywords = reflected.keywords();
        }
        List<ScoredMemory> memories = new ArrayList<>(pins.memories());
        memories.addAll(ranking);
        MemoryPrompt prompt = BudgetedLayout.build(
                new Recalled(
                                memories,
                                pins.dialogues(),
                                surroundings(session, ranking, turnsInPrompt),
                                pins.instructions(),
                                message)
                        .trustedAtLeast(session.settings().minTrust()),
                tokenBudget,
                properties.limits(),
                tokens);
        return new ReplyContext(
                prompt.text(), prompt.included(), prompt.numbered(), prompt.shown(), searchCount, keywords, rerank);
    }

    private static List<ScoredMemory> namedFirst(List<ScoredMemory> named, List<ScoredMemory> ranking) {
        Map<UUID, ScoredMemory> ordered = new LinkedHashMap<>();
        named.forEach(memory -> ordered.put(memory.id(), memory));
        ranking.forEach(memory -> ordered.putIfAbsent(memory.id(), memory));
        return List.copyOf(ordered.values());
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
        Map<UUID, List<TurnView>> found =
                turnReader.turnsAround(session.tenant(), memoryOfTurn.keySet(), properties.neighbours());
        // A neighbour whose own record is quarantined is not shown beside another turn either.
        Set<UUID> heldBack = quarantine.heldBackTurns(
                session.tenant(),
                session.userId(),
                found.values().stream().flatMap(List::stream).map(TurnView::id).toList());
        found.forEach((turnId, turns) -> around.put(
                memoryOfTurn.get(turnId),
                turns.stream()
                        .filter(turn -> turn.id().equals(turnId)
                                || !turnsInPrompt.contains(turn.id()) && !heldBack.contains(turn.id()))
                        .toList()));
        return around;
    }
}
