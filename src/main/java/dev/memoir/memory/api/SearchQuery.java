package dev.memoir.memory.api;

/**
 * What a search looks for: the words (for the full-text ranking) and their embedding (for the dense ranking),
 * embedded once however many searches use it.
 */
public record SearchQuery(String text, float[] embedding) {}
