package dev.memoir.memory.api;

import java.util.UUID;

/** A passage of a long memory, as archived. */
public record ArchivedPassage(
        UUID memoryId, int position, int start, int end, String embeddingModel, String embedding) {}
