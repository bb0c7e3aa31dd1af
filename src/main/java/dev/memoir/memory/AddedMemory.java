package dev.memoir.memory;

/** A memory a client added, and whether this add created it (false: the user already had the same text). */
public record AddedMemory(MemoryView memory, boolean created) {}
