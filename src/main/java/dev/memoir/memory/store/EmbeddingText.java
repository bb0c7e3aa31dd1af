package dev.memoir.memory.store;

import java.util.UUID;

import dev.memoir.llm.EmbeddedDocument;

/**
 * What of a memory is embedded, and where the passages cut from that embedding fall in the memory's own text. A
 * topic is part of what a memory is about, so it is embedded with the text, ahead of it.
 */
public final class EmbeddingText {

    private EmbeddingText() {}

    /** The text embedded for a memory: its topic, if any, leading its text. */
    public static String of(String topic, String text) {
        return topic == null || topic.isBlank() ? text : topic + ": " + text;
    }

    /**
     * A memory's passages, placed in its text: they were cut from its embedding text, which may lead with a topic.
     */
    public static MemoryPassages.Owner passagesOf(
            UUID id, UUID tenantId, String userId, String topic, String text, EmbeddedDocument embedded) {
        int shift = of(topic, text).length() - text.length();
        return new MemoryPassages.Owner(
                id,
                tenantId,
                userId,
                embedded.passages().stream()
                        .map(p -> new EmbeddedDocument.Passage(
                                Math.max(0, p.start() - shift), Math.max(0, p.end() - shift), p.embedding()))
                        .toList());
    }

    /** The passages of a memory just embedded, placed in its text. */
    public static MemoryPassages.Owner passagesOf(MemoryRecord record, EmbeddedDocument embedded) {
        return passagesOf(
                record.getId(),
                record.getTenantId(),
                record.getUserId(),
                record.getTopic(),
                record.getText(),
                embedded);
    }
}
