package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.memoir.memory.MemoryKind;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.ScoredMemory;
import dev.memoir.memory.SearchQuery;
import dev.memoir.reranker.RerankTrace;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.SessionRef;

/**
 * The records a budget-filled reply context draws on: one hybrid search over every record kind the session reads,
 * so that every kind competes in one fused ranking, ordered then by the learned reranker (sessions that rerank) or
 * by self-reflection. Self-reflection only orders and adds: the memories the model names relevant go first, its
 * keywords run one more search whose results are fused into the ranking, and nothing found is dropped (a small
 * model naming one memory, or the wrong one, would otherwise remove the evidence search found). How many are shown
 * is the reply prompt's token budget's to decide.
 */
@Service
class BudgetContextRetriever {

    /** Reciprocal-rank constant for fusing the keyword search into the first ranking, as search fuses rankings. */
    private static final int FUSION_K = 20;

    private final MemorySearches searches;
    private final SelfReflectiveRetriever reflection;
    private final Reranker reranker;
    private final ContextProperties properties;

    BudgetContextRetriever(
            MemorySearches searches,
            SelfReflectiveRetriever reflection,
            Reranker reranker,
            ContextProperties properties) {
        this.searches = searches;
        this.reflection = reflection;
        this.reranker = reranker;
        this.properties = properties;
    }

    /** The records in the order the prompt should consider them, how many searches ran, and what was added. */
    record Ranked(List<ScoredMemory> memories, int searches, List<String> keywords, Optional<RerankTrace> rerank) {}

    Ranked retrieve(SessionRef session, String message, SearchQuery query, Collection<UUID> excludedTurnIds) {
        Set<MemoryKind> kinds = RecordRetriever.readKinds(session);
        List<ScoredMemory> found = searches.nearest(
                session.tenant(), session.userId(), kinds, query, properties.candidates(), excludedTurnIds);
        if (session.settings().rerank()) {
            Reranker.Reranked ordered = reranker.order(session.tenant(), query.embedding(), found);
            return new Ranked(ordered.shown(), 1, List.of(), Optional.of(ordered.trace()));
        }
        List<ScoredMemory> ranking = found;
        List<ScoredMemory> named = new ArrayList<>();
        List<String> keywords = new ArrayList<>();
        int searchCount = 1;
        for (int round = 0; round < session.settings().reflectionRounds() && !ranking.isEmpty(); round++) {
            List<ScoredMemory> shown = ranking.subList(0, Math.min(properties.reflectionShown(), ranking.size()));
            Optional<ReflectionVerdict> verdict = reflection.reflect(message, shown);
            if (verdict.isEmpty()) {
                break;
            }
            verdict.get().relevant().stream()
                    .filter(n -> n >= 1 && n <= shown.size())
                    .map(n -> shown.get(n - 1))
                    .filter(memory -> named.stream().noneMatch(m -> m.id().equals(memory.id())))
                    .forEach(named::add);
            if (verdict.get().sufficient() || verdict.get().keywords().isEmpty()) {
                break;
            }
            keywords.addAll(verdict.get().keywords());
            SearchQuery extended = searches.query(
                    message + "\n" + String.join(", ", verdict.get().keywords()));
            ranking = fused(
                    ranking,
                    searches.nearest(
                            session.tenant(),
                            session.userId(),
                            kinds,
                            extended,
                            properties.candidates(),
                            excludedTurnIds));
            searchCount++;
        }
        return new Ranked(namedFirst(named, ranking), searchCount, keywords, Optional.empty());
    }

    /**
     * Two rankings as one, by reciprocal rank: a memory both searches found rises, one only the keywords found
     * enters where its rank puts it. Each memory keeps its higher similarity.
     */
    static List<ScoredMemory> fused(List<ScoredMemory> first, List<ScoredMemory> second) {
        Map<UUID, Double> scores = new HashMap<>();
        Map<UUID, ScoredMemory> memories = new LinkedHashMap<>();
        for (List<ScoredMemory> ranking : List.of(first, second)) {
            for (int rank = 0; rank < ranking.size(); rank++) {
                ScoredMemory memory = ranking.get(rank);
                scores.merge(memory.id(), 1.0 / (FUSION_K + rank + 1), Double::sum);
                memories.merge(memory.id(), memory, (a, b) -> a.score() >= b.score() ? a : b);
            }
        }
        return memories.values().stream()
                .sorted(Comparator.comparingDouble((ScoredMemory m) -> scores.get(m.id()))
                        .reversed())
                .toList();
    }

    private static List<ScoredMemory> namedFirst(List<ScoredMemory> named, List<ScoredMemory> ranking) {
        Map<UUID, ScoredMemory> ordered = new LinkedHashMap<>();
        named.forEach(memory -> ordered.put(memory.id(), memory));
        ranking.forEach(memory -> ordered.putIfAbsent(memory.id(), memory));
        return List.copyOf(ordered.values());
    }
}
