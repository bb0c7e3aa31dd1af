package dev.memoir.memory;

import dev.memoir.memory.api.MemoryView;

/** A memory a client added, and whether this add created it (false: the user already had the same text). */
public record AddedMemory(MemoryView memory, boolean created) {}
