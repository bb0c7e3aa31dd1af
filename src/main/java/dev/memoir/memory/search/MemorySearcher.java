package dev.memoir.memory.search;

import java.util.List;
import java.util.stream.Collectors;

import io.micrometer.observation.Observation;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.Observed;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;

/**
 * One search of a user's memories, as every search runs it: the facade's entry points ({@code MemorySearches}) and
 * the module's own searches (supersession's nearest facts) alike. Each is one {@code memoir.memory.search}
 * observation, tagged with its mode, and on its span with the kinds searched, the limit and how many were found:
 * never the query, the user or what was found.
 */
@Component
public class MemorySearcher {

    private final HybridSearchRepository hybridSearch;
    private final TextEmbedder embedder;
    private final Observed observations;

    MemorySearcher(HybridSearchRepository hybridSearch, TextEmbedder embedder, Observed observations) {
        this.hybridSearch = hybridSearch;
        this.embedder = embedder;
        this.observations = observations;
    }

    /** A search for what answers {@code text}: a question, a message, a search term. */
    public SearchQuery query(String text) {
        return new SearchQuery(text, embedder.embedQuery(text));
    }

    /** A search for memories that say the same as {@code text} (merge and edit candidates). */
    public SearchQuery queryLike(String text) {
        return new SearchQuery(text, embedder.embedDocument(text));
    }

    /** The memories that best answer the search, best first, each with its score. */
    @Transactional(readOnly = true)
    public List<ScoredMemory> search(MemorySearch search) {
        return hits(search).stream()
                .map(hit -> new ScoredMemory(
                        hit.memory().id(),
                        hit.memory().kind(),
                        hit.memory().topic(),
                        hit.memory().text(),
                        hit.similarity() == null ? 0 : hit.similarity(),
                        hit.memory().provenance(),
                        hit.memory().occurredFrom(),
                        hit.memory().occurredTo(),
                        hit.explanation()))
                .toList();
    }

    /** The search's hits as the statement found them, in the caller's transaction. */
    public List<HybridSearchRepository.Hit> hits(MemorySearch search) {
        if (search.limit() <= 0 || search.kinds().isEmpty()) {
            return List.of();
        }
        Observation observation = observations
                .observation(Observed.Name.MEMORY_SEARCH)
                .lowCardinalityKeyValue(
                        "memoir.search.mode", hybridSearch.mode(search).wireName())
                .highCardinalityKeyValue(
                        "memoir.search.kinds",
                        search.kinds().stream()
                                .map(MemoryKind::wireName)
                                .sorted()
                                .collect(Collectors.joining(",")))
                .highCardinalityKeyValue("memoir.search.limit", Integer.toString(search.limit()));
        return observation.observe(() -> {
            List<HybridSearchRepository.Hit> found = hybridSearch.search(search, embedder.modelName());
            observation.highCardinalityKeyValue("memoir.search.results", Integer.toString(found.size()));
            return found;
        });
    }
}
