package dev.memoir.memory;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.Cursor;
import dev.memoir.memory.api.DialogueWindow;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.memory.api.Speaker;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.api.Validity;
import dev.memoir.memory.search.HybridSearchRepository;
import dev.memoir.memory.search.MemorySearcher;
import dev.memoir.memory.search.SearchProperties;
import dev.memoir.tenant.TenantId;

/**
 * Finding a user's memories: every search of memory, hybrid unless it says otherwise (each run by the inside's
 * {@link MemorySearcher}, one observation each), and the newest-first listing.
 */
@Service
public class MemorySearches {

    private final HybridSearchRepository hybridSearch;
    private final MemorySearcher searcher;
    private final int fusionK;

    MemorySearches(HybridSearchRepository hybridSearch, MemorySearcher searcher, SearchProperties search) {
        this.hybridSearch = hybridSearch;
        this.searcher = searcher;
        this.fusionK = search.rrfK();
    }

    /**
     * Rankings of the same user's memories fused into one by reciprocal rank, with the constant search fuses its own
     * rankings with ({@code memoir.search.rrf-k}): a memory several rankings found rises, one only a later ranking
     * found enters where its rank puts it. Each memory keeps its highest score; ties keep the first ranking's order.
     */
    public List<ScoredMemory> fused(List<List<ScoredMemory>> rankings) {
        Map<UUID, Double> scores = new HashMap<>();
        Map<UUID, ScoredMemory> memories = new LinkedHashMap<>();
        for (List<ScoredMemory> ranking : rankings) {
            for (int rank = 0; rank < ranking.size(); rank++) {
                ScoredMemory memory = ranking.get(rank);
                scores.merge(memory.id(), 1.0 / (fusionK + rank + 1), Double::sum);
                memories.merge(memory.id(), memory, (a, b) -> a.score() >= b.score() ? a : b);
            }
        }
        return memories.values().stream()
                .sorted(Comparator.comparingDouble((ScoredMemory m) -> scores.get(m.id()))
                        .reversed())
                .toList();
    }

    /** A search for what answers {@code text}: a question, a message, a search term. */
    public SearchQuery query(String text) {
        return searcher.query(text);
    }

    /** A search for memories that say the same as {@code text} (merge and edit candidates). */
    public SearchQuery queryLike(String text) {
        return searcher.queryLike(text);
    }

    /** The memories that best answer the search, best first, each with its score (in a transaction of its own). */
    public List<ScoredMemory> search(MemorySearch search) {
        return searcher.search(search);
    }

    /**
     * The user's memories of the given kinds that best answer a query, best first, skipping memories that rest on
     * any of the excluded turns (those already in the prompt verbatim).
     */
    @Transactional(readOnly = true)
    public List<ScoredMemory> nearest(
            TenantId tenant,
            String userId,
            Collection<MemoryKind> kinds,
            SearchQuery query,
            int limit,
            Collection<UUID> excludedTurnIds) {
        return nearest(tenant, userId, kinds, query, limit, excludedTurnIds, null);
    }

    /** As {@link #nearest(TenantId, String, Collection, SearchQuery, int, Collection)}, of memories trusted at least so. */
    @Transactional(readOnly = true)
    public List<ScoredMemory> nearest(
            TenantId tenant,
            String userId,
            Collection<MemoryKind> kinds,
            SearchQuery query,
            int limit,
            Collection<UUID> excludedTurnIds,
            Trust minTrust) {
        return search(MemorySearch.of(tenant, userId, Set.copyOf(kinds), query, limit)
                .excludingTurns(excludedTurnIds)
                .trustedAtLeast(minTrust));
    }

    /** The user's memories of one kind and speaker that best match a query, best first. */
    @Transactional(readOnly = true)
    public List<ScoredMemory> nearestOfSpeaker(
            TenantId tenant, String userId, MemoryKind kind, Speaker speaker, SearchQuery query, int limit) {
        return search(
                MemorySearch.of(tenant, userId, Set.of(kind), query, limit).ofSpeaker(speaker));
    }

    /** Search results as the API shows them, with each result's ranking when {@code explain} is asked. */
    @Transactional(readOnly = true)
    public List<MemoryView> views(MemorySearch search, boolean explain) {
        return searcher.hits(search).stream()
                .map(hit -> explain ? hit.memory().explained(hit.explanation()) : hit.memory())
                .toList();
    }

    /**
     * A page of the user's memories, newest first, optionally of one session, overlapping a time window and trusted at
     * least so much (null: any).
     *
     * @param cursor the previous page's {@code nextCursor}; null for the first page (400 naming cursor if garbled)
     */
    @Transactional(readOnly = true)
    public MemoryList newest(
            TenantId tenant,
            String userId,
            Collection<MemoryKind> kinds,
            UUID sessionId,
            DialogueWindow window,
            Validity validity,
            Trust minTrust,
            String cursor,
            int limit) {
        Cursor after = Cursor.decode(cursor, "memory", 2);
        List<MemoryView> fetched = hybridSearch.newest(
                MemorySearch.of(tenant, userId, Set.copyOf(kinds), null, limit + 1)
                        .within(sessionId, window)
                        .at(validity)
                        .trustedAtLeast(minTrust),
                after == null ? null : after.instant(0),
                after == null ? null : after.uuid(1));
        return MemoryList.of(Cursor.page(fetched, limit, m -> Cursor.encode("memory", m.createdAt(), m.id())));
    }
}
