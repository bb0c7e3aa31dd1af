package dev.memoir.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.springframework.stereotype.Component;

import dev.memoir.common.prompt.QuotedText;
import dev.memoir.llm.ChatModelClient;
import dev.memoir.llm.PromptValues;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.session.api.SessionRef;

/**
 * Self-reflection retrieval (conditional-memory paper), the one loop both ways of building a reply context run: the
 * model is shown the best of the memories found and judges whether they suffice, names those that bear on the
 * message, or asks for another search with keywords, whose results are fused into the ranking, at most
 * {@code reflectionRounds} times. What the verdicts come to is the caller's to use: the budget context puts the
 * named memories first and drops nothing search found; the per-kind context (the paper's) keeps only those named
 * when the model found them sufficient.
 */
@Component
class SelfReflection {

    /**
     * What the rounds came to.
     *
     * @param ranking    every memory found, the keyword searches fused in
     * @param named      the memories named relevant in any round, in the order named
     * @param sufficient the memories named in the round that found them sufficient; empty if none did
     * @param garbled    that round named numbers, none of them of a memory shown: a garbled answer, not a choice
     * @param keywords   the keywords added to the query, in order
     * @param searches   the first search and one per round that searched again
     */
    record Reflected(
            List<ScoredMemory> ranking,
            List<ScoredMemory> named,
            Optional<List<ScoredMemory>> sufficient,
            boolean garbled,
            List<String> keywords,
            int searches) {}

    private final ChatModelClient model;
    private final MemorySearches searches;

    SelfReflection(ChatModelClient model, MemorySearches searches) {
        this.model = model;
        this.searches = searches;
    }

    /**
     * The rounds over {@code found} (best first), showing the model at most {@code shownAtMost} of them each time;
     * {@code searchAgain} runs a search for a query extended by keywords.
     */
    Reflected reflect(
            SessionRef session,
            String message,
            List<ScoredMemory> found,
            int shownAtMost,
            Function<String, List<ScoredMemory>> searchAgain) {
        List<ScoredMemory> ranking = found;
        List<ScoredMemory> named = new ArrayList<>();
        List<String> keywords = new ArrayList<>();
        int searchCount = 1;
        for (int round = 0; round < session.settings().reflectionRounds() && !ranking.isEmpty(); round++) {
            List<ScoredMemory> shown = ranking.subList(0, Math.min(shownAtMost, ranking.size()));
            Optional<ReflectionVerdict> verdict = ask(message, shown);
            if (verdict.isEmpty()) {
                break;
            }
            List<ScoredMemory> chosen = verdict.get().relevant().stream()
                    .filter(n -> n >= 1 && n <= shown.size())
                    .distinct()
                    .map(n -> shown.get(n - 1))
                    .toList();
            chosen.stream()
                    .filter(memory -> named.stream().noneMatch(m -> m.id().equals(memory.id())))
                    .forEach(named::add);
            if (verdict.get().sufficient()) {
                boolean garbled = chosen.isEmpty() && !verdict.get().relevant().isEmpty();
                return new Reflected(ranking, named, Optional.of(chosen), garbled, keywords, searchCount);
            }
            if (verdict.get().keywords().isEmpty()) {
                break;
            }
            keywords.addAll(verdict.get().keywords());
            ranking = searches.fused(List.of(
                    ranking,
                    searchAgain.apply(
                            message + "\n" + String.join(", ", verdict.get().keywords()))));
            searchCount++;
        }
        return new Reflected(ranking, named, Optional.empty(), false, keywords, searchCount);
    }

    /** The model's verdict, or empty when its answer is unreadable and the memories should be used as found. */
    private Optional<ReflectionVerdict> ask(String message, List<ScoredMemory> candidates) {
        List<String> numbered = IntStream.range(0, candidates.size())
                .mapToObj(i -> (i + 1) + ". " + QuotedText.of(candidates.get(i).text()))
                .toList();
        return model.askOrEmpty(
                ReflectionVerdict.STEP,
                PromptValues.create()
                        .items("memories", numbered, "\n", "")
                        .text("message", QuotedText.of(message))
                        .fixed("count", Integer.toString(candidates.size())));
    }
}
