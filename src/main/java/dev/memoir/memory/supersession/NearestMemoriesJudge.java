package dev.memoir.memory.supersession;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchMode;
import dev.memoir.memory.api.Supersession;
import dev.memoir.memory.search.MemorySearcher;
import dev.memoir.tenant.TenantId;

/**
 * Judges, before a fact-bearing memory is stored, how it relates to the user's nearest live fact-bearing memories:
 * one model call shows the model at most {@code memoir.supersession.candidates} of them, and only those at least
 * {@code memoir.supersession.min-similarity} alike; with none that close no call is made. Only memories said no
 * later than the new one are shown: an older statement, imported late, never supersedes a newer one. Called
 * outside any transaction (it waits for the model); the writer applies the verdict when it stores the memory. Other
 * modules reach it through {@code SupersessionJudge}; the fact-supersession job calls it here.
 */
@Component
public class NearestMemoriesJudge {

    private static final Logger log = LoggerFactory.getLogger(NearestMemoriesJudge.class);

    private final ChatModelClient model;
    private final SupersessionProperties properties;
    private final MemorySearcher searches;

    NearestMemoriesJudge(ChatModelClient model, SupersessionProperties properties, MemorySearcher searches) {
        this.searches = searches;
        this.model = model;
        this.properties = properties;
    }

    /**
     * What storing {@code text} should do to the user's live memories.
     *
     * @param said when what the new memory states was said; null for now
     * @param excluded memories not to judge against (the new memory itself, when it is already stored)
     */
    public Supersession judge(TenantId tenant, String userId, String text, Instant said, List<UUID> excluded) {
        return judge(tenant, userId, text, said, excluded, MemoryKind.FACT_BEARING);
    }

    /** As {@link #judge(TenantId, String, String, Instant, List)}, against memories of some fact-bearing kinds. */
    public Supersession judge(
            TenantId tenant, String userId, String text, Instant said, List<UUID> excluded, Set<MemoryKind> kinds) {
        if (!properties.enabled()) {
            return Supersession.NONE;
        }
        Instant when = said == null ? Instant.now() : said;
        List<ScoredMemory> close = searches
                .search(MemorySearch.of(
                                tenant,
                                userId,
                                kinds,
                                searches.queryLike(text),
                                properties.candidates() + excluded.size())
                        .using(SearchMode.DENSE))
                .stream()
                .filter(m -> !excluded.contains(m.id()))
                .filter(m -> m.score() >= properties.minSimilarity())
                .filter(m -> m.occurredFrom() == null || !m.occurredFrom().isAfter(when))
                .limit(properties.candidates())
                .toList();
        if (close.isEmpty()) {
            return Supersession.NONE;
        }
        SupersessionAnswer answer = model.ask(
                SupersessionAnswer.STEP,
                PromptValues.create()
                        .items(
                                "existing",
                                IntStream.range(0, close.size())
                                        .mapToObj(i -> i + ". (said "
                                                + day(close.get(i).occurredFrom()) + ") "
                                                + QuotedText.of(close.get(i).text()))
                                        .toList(),
                                "\n",
                                "")
                        .fixed("said", day(when))
                        .text("memory", QuotedText.block(text))
                        .fixed("last", Integer.toString(close.size() - 1)));
        List<UUID> superseded = new ArrayList<>();
        UUID repeated = null;
        List<UUID> repeatedFacts = new ArrayList<>();
        for (SupersessionAnswer.Judged judged : answer.judged()) {
            ScoredMemory memory = close.get(judged.index());
            if (judged.relation().supersedes() && !superseded.contains(memory.id())) {
                superseded.add(memory.id());
            } else if (judged.relation() == SupersessionAnswer.Relation.REPEATS) {
                repeated = repeated == null ? memory.id() : repeated;
                if (memory.kind() == MemoryKind.FACT && !repeatedFacts.contains(memory.id())) {
                    repeatedFacts.add(memory.id());
                }
            }
        }
        if (!superseded.isEmpty() || repeated != null) {
            log.info("Supersession of user {}'s memories: {} superseded, repeated by {}", userId, superseded, repeated);
        }
        return new Supersession(List.copyOf(superseded), Optional.ofNullable(repeated), List.copyOf(repeatedFacts));
    }

    private static String day(Instant instant) {
        return instant == null ? "at an unknown time" : instant.toString().substring(0, 10);
    }
}
