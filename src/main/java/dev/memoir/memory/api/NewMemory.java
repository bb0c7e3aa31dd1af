package dev.memoir.memory.api;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * A memory to store. {@code dedupKey}, when given, makes the write idempotent: a second write with the same key
 * returns the first record instead of adding another (retried jobs rely on this). {@code origin}, when null, is that
 * of a memory a job made from its turns: derived, trusted as the least of them (docs/trust.md).
 */
public record NewMemory(
        TenantId tenant,
        String userId,
        MemoryKind kind,
        String text,
        UUID sessionId,
        List<UUID> turnIds,
        DedupKey dedupKey,
        String topic,
        Speaker speaker,
        Instant occurredFrom,
        Instant occurredTo,
        MemoryOrigin origin) {

    public NewMemory(
            TenantId tenant,
            String userId,
            MemoryKind kind,
            String text,
            UUID sessionId,
            List<UUID> turnIds,
            DedupKey dedupKey,
            String topic,
            Speaker speaker) {
        this(tenant, userId, kind, text, sessionId, turnIds, dedupKey, topic, speaker, null, null, null);
    }

    /**
     * The same memory dated explicitly. Without a date, the memory is dated by the turns it rests on (PostgreSQL
     * looks them up when it stores the memory), or by when it was written if it rests on none.
     */
    public NewMemory occurred(Instant from, Instant to) {
        return new NewMemory(
                tenant, userId, kind, text, sessionId, turnIds, dedupKey, topic, speaker, from, to, origin);
    }

    /** The same memory from a known source (a turn, a client, MCP, feedback) rather than made by a job. */
    public NewMemory from(MemoryOrigin known) {
        return new NewMemory(
                tenant,
                userId,
                kind,
                text,
                sessionId,
                turnIds,
                dedupKey,
                topic,
                speaker,
                occurredFrom,
                occurredTo,
                known);
    }

    public NewMemory(
            TenantId tenant,
            String userId,
            MemoryKind kind,
            String text,
            UUID sessionId,
            List<UUID> turnIds,
            DedupKey dedupKey) {
        this(tenant, userId, kind, text, sessionId, turnIds, dedupKey, null, null);
    }

    public NewMemory(
            TenantId tenant,
            String userId,
            MemoryKind kind,
            String text,
            UUID sessionId,
            List<UUID> turnIds,
            DedupKey dedupKey,
            String topic) {
        this(tenant, userId, kind, text, sessionId, turnIds, dedupKey, topic, null);
    }
}
