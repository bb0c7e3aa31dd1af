package dev.memoir.memory;

import java.time.Instant;

/** How many memories a user has, and when the newest was written. */
public record UserMemories(String userId, long memories, Instant lastWrittenAt) {}
