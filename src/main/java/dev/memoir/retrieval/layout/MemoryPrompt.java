package dev.memoir.retrieval.layout;

import java.util.List;

import dev.memoir.memory.ScoredMemory;

/**
 * The memory part of a reply prompt, the memories it holds, and its [Memory] entries in their numbered order (what
 * the reply's citations refer to).
 */
public record MemoryPrompt(String text, List<ScoredMemory> included, List<ScoredMemory> numbered) {}
