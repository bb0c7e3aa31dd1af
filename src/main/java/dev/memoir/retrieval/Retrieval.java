package dev.memoir.retrieval;

import java.util.List;

import dev.memoir.memory.ScoredMemory;

/**
 * What retrieval gives the reply: the memories, best first, and how it found them.
 *
 * @param searches how many searches ran (1 plus one per self-reflection round that asked for more)
 * @param keywords the keywords self-reflection added to the query, in order
 */
public record Retrieval(List<ScoredMemory> memories, int searches, List<String> keywords) {
}
