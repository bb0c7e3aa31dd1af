package dev.memoir.memory;

import java.time.Duration;
import java.util.UUID;

import dev.memoir.memory.api.MemoryKind;

/**
 * How long memories of one kind are kept, counted from when Memoir wrote them: for one tenant, or, with a null
 * tenant, for every tenant without a rule of its own. A null {@code keepFor} keeps them for good.
 */
public record RetentionRule(UUID tenantId, MemoryKind kind, Duration keepFor) {}
