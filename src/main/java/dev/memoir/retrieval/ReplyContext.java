package dev.memoir.retrieval;

import java.util.List;
import java.util.Optional;

import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.reranker.RerankTrace;

/**
 * The memory a reply request carries: the text laid out within its token budget, ready for the system message, the
 * memories it holds, its numbered entries (what citations name), and how the memories were found.
 *
 * @param text     the memory part of the reply prompt
 * @param included every memory the text holds, pinned ones (the recursive summary, memos) first
 * @param numbered the [Memory] entries in their numbered order: entry n is {@code numbered.get(n - 1)}
 * @param shown    what each entry shows of its memory, without its number, in the same order (an excerpt of a long
 *                 one, its kind and date where the layout gives them)
 * @param searches how many searches ran (1 plus one per self-reflection round that asked for more)
 * @param keywords the keywords self-reflection added to the query, in order
 * @param rerank   how the learned reranker ranked the candidates, when the session reranks
 */
public record ReplyContext(
        String text,
        List<ScoredMemory> included,
        List<ScoredMemory> numbered,
        List<String> shown,
        int searches,
        List<String> keywords,
        Optional<RerankTrace> rerank) {

    /** The memories behind the cited entry numbers; numbers outside the list are ignored. */
    public List<ScoredMemory> cited(List<Integer> numbers) {
        return numbers.stream()
                .distinct()
                .filter(n -> n >= 1 && n <= numbered.size())
                .map(n -> numbered.get(n - 1))
                .toList();
    }
}
