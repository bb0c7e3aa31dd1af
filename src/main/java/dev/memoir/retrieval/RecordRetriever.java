package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.session.api.SessionRef;

/**
 * Record retrieval: the top K memories of each record kind the session reads, by hybrid search (conditional-memory
 * paper used dense retrieval alone; full-text ranking fused with it finds the turns that name people, places and
 * things). Memos and the recursive summary have retrievers of their own.
 */
@Component
class RecordRetriever {

    private final MemorySearches searches;

    RecordRetriever(MemorySearches searches) {
        this.searches = searches;
    }

    /**
     * The record kinds a session's retrieval covers: those it reads, and always the reflected memories, which
     * hold what the user corrected, and the facts a client added directly, which the user expects the assistant
     * to know whatever the session's strategy.
     */
    static Set<MemoryKind> readKinds(SessionRef session) {
        Set<MemoryKind> kinds = EnumSet.copyOf(MemoryKind.READ_BY_EVERY_SESSION);
        kinds.addAll(session.settings().read());
        kinds.retainAll(MemoryKind.RECORDS);
        return kinds;
    }

    List<ScoredMemory> retrieve(SessionRef session, String query, Collection<UUID> excludedTurnIds) {
        SearchQuery search = searches.query(query);
        List<ScoredMemory> found = new ArrayList<>();
        for (MemoryKind kind : readKinds(session)) {
            found.addAll(searches.nearest(
                    session.tenant(),
                    session.userId(),
                    Set.of(kind),
                    search,
                    session.settings().topK(kind),
                    excludedTurnIds,
                    session.settings().minTrust()));
        }
        return found;
    }
}
