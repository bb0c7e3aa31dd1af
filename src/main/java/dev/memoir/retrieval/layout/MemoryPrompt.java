package dev.memoir.retrieval.layout;

import java.util.List;

import dev.memoir.memory.api.ScoredMemory;

/**
 * The memory part of a reply prompt, the memories it holds, its [Memory] entries in their numbered order (what the
 * reply's citations refer to), and what each entry shows of its memory (without its number), in the same order.
 */
public record MemoryPrompt(String text, List<ScoredMemory> included, List<ScoredMemory> numbered, List<String> shown) {}
