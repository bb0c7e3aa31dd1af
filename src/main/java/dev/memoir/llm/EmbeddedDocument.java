package dev.memoir.llm;

import java.util.List;

/**
 * A text embedded for search: the vector that stands for the whole, and, for a text longer than one passage
 * ({@code memoir.embedding.passage-tokens}), each passage's, with the characters it covers.
 */
public record EmbeddedDocument(float[] embedding, List<Passage> passages) {

    /** Characters {@code start} (inclusive) to {@code end} (exclusive) of the text, and their vector. */
    public record Passage(int start, int end, float[] embedding) {}
}
