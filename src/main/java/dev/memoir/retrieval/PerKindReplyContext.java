package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.ContextSelection;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.reranker.RerankTrace;
import dev.memoir.reranker.Reranker;
import dev.memoir.retrieval.layout.MemoryPrompt;
import dev.memoir.retrieval.layout.PerKindLayout;
import dev.memoir.retrieval.layout.Recalled;
import dev.memoir.session.api.SessionRef;

/**
 * The papers' reply context: the top K of each record kind the session reads (conditional memory's fine-grained
 * retrieval), narrowed by the learned reranker to its top K (RMM) or by self-reflection to the memories the model
 * names when it finds them sufficient, and laid out by {@link PerKindLayout}.
 */
@Component
class PerKindReplyContext implements ReplyContextBuilder {

    private final MemorySearches searches;
    private final PinnedMemories pinned;
    private final RecordRetriever records;
    private final SelfReflection reflection;
    private final Reranker reranker;
    private final TokenCounter tokens;
    private final ContextProperties properties;

    PerKindReplyContext(
            MemorySearches searches,
            PinnedMemories pinned,
            RecordRetriever records,
            SelfReflection reflection,
            Reranker reranker,
            TokenCounter tokens,
            ContextProperties properties) {
        this.properties = properties;
        this.searches = searches;
        this.pinned = pinned;
        this.records = records;
        this.reflection = reflection;
        this.reranker = reranker;
        this.tokens = tokens;
    }

    @Override
    public ContextSelection selection() {
        return ContextSelection.PER_KIND;
    }

    @Override
    public ReplyContext build(SessionRef session, String message, Collection<UUID> turnsInPrompt, int tokenBudget) {
        boolean rerank = session.settings().rerank();
        SearchQuery query = pinned.any(session) || rerank ? searches.query(message) : null;
        PinnedMemories.Pinned pins =
                query == null ? PinnedMemories.Pinned.NONE : pinned.recall(session, message, query, turnsInPrompt);
        List<ScoredMemory> chosen;
        int searchCount = 1;
        List<String> keywords = List.of();
        Optional<RerankTrace> trace = Optional.empty();
        if (rerank) {
            List<ScoredMemory> candidates = searches.nearest(
                    session.tenant(),
                    session.userId(),
                    RecordRetriever.readKinds(session),
                    query,
                    reranker.candidateCount(),
                    turnsInPrompt,
                    session.settings().minTrust());
            Reranker.Reranked ordered = reranker.order(session.tenant(), query.embedding(), candidates);
            // The first K of the reranker's (sampled) order: its top K.
            chosen = ordered.shown()
                    .subList(0, Math.min(reranker.topK(), ordered.shown().size()));
            trace = Optional.of(ordered.trace());
        } else {
            SelfReflection.Reflected reflected = reflection.reflect(
                    session,
                    message,
                    byScore(records.retrieve(session, message, turnsInPrompt)),
                    Integer.MAX_VALUE,
                    extended -> byScore(records.retrieve(session, extended, turnsInPrompt)));
            chosen =
                    reflected.sufficient().filter(named -> !reflected.garbled()).orElse(reflected.ranking());
            searchCount = reflected.searches();
            keywords = reflected.keywords();
        }
        List<ScoredMemory> memories = new ArrayList<>(pins.memories());
        memories.addAll(chosen);
        MemoryPrompt prompt = PerKindLayout.build(
                new Recalled(memories, pins.dialogues(), Map.of(), pins.instructions(), message)
                        .trustedAtLeast(session.settings().minTrust()),
                tokenBudget,
                properties.instructionShare(),
                tokens);
        return new ReplyContext(
                prompt.text(), prompt.included(), prompt.numbered(), prompt.shown(), searchCount, keywords, trace);
    }

    /** The top K of every kind as one ranking, by score across kinds. */
    private static List<ScoredMemory> byScore(List<ScoredMemory> found) {
        return found.stream()
                .sorted(Comparator.comparingDouble(ScoredMemory::score).reversed())
                .toList();
    }
}
