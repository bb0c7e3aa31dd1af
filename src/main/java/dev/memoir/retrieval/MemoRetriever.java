package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.memory.api.SearchQuery;
import dev.memoir.session.api.SessionRef;

/**
 * MemoChat memo retrieval: the memos nearest to the message are shown to the model as numbered topic
 * options, with a "none of the others" (NOTO) option at a random position, and the model picks the relevant
 * ones. Choosing NOTO means no memo; numbers outside the options are ignored.
 */
@Component
class MemoRetriever {

    private static final Logger log = LoggerFactory.getLogger(MemoRetriever.class);

    private final ChatModelClient model;
    private final RandomGenerator random = RandomGenerator.getDefault();
    private final MemorySearches searches;

    MemoRetriever(ChatModelClient model, MemorySearches searches) {
        this.searches = searches;
        this.model = model;
    }

    List<ScoredMemory> retrieve(SessionRef session, String message, SearchQuery query) {
        List<ScoredMemory> candidates = searches.nearest(
                session.tenant(),
                session.userId(),
                Set.of(MemoryKind.MEMO),
                query,
                session.settings().topK(MemoryKind.MEMO),
                List.of(),
                session.settings().minTrust());
        if (candidates.isEmpty()) {
            return List.of();
        }
        int noto = random.nextInt(candidates.size() + 1);
        List<ScoredMemory> options = new ArrayList<>(candidates);
        options.add(noto, null);
        List<String> numbered = IntStream.range(0, options.size())
                .mapToObj(i -> "(" + (i + 1) + ") "
                        + (options.get(i) == null
                                ? "NOTO. None of the others."
                                : QuotedText.of(options.get(i).topic()) + ". "
                                        + QuotedText.of(options.get(i).text())))
                .toList();
        List<Integer> chosen = model.askOrEmpty(
                        MemoSelection.STEP,
                        PromptValues.create()
                                .fixed("count", Integer.toString(options.size()))
                                .text("query", QuotedText.block(message))
                                .items("options", numbered, "\n", ""))
                .map(MemoSelection::selected)
                .orElse(List.of());
        if (chosen.contains(noto + 1)) {
            return List.of();
        }
        List<ScoredMemory> selected = chosen.stream()
                .distinct()
                .filter(n -> n >= 1 && n <= options.size())
                .map(n -> options.get(n - 1))
                .toList();
        if (selected.size() < chosen.size()) {
            log.info("Memo retrieval ignored option numbers outside 1..{}: {}", options.size(), chosen);
        }
        return selected;
    }
}
