package dev.memoir.memory;

import java.util.List;
import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * A memory to store. {@code dedupKey}, when given, makes the write idempotent: a second write with the same key
 * returns the first record instead of adding another (retried jobs rely on this).
 */
public record NewMemory(TenantId tenant, String userId, MemoryKind kind, String text, UUID sessionId,
        List<UUID> turnIds, String dedupKey, String topic, Speaker speaker) {

    public NewMemory(TenantId tenant, String userId, MemoryKind kind, String text, UUID sessionId,
            List<UUID> turnIds, String dedupKey) {
        this(tenant, userId, kind, text, sessionId, turnIds, dedupKey, null, null);
    }

    public NewMemory(TenantId tenant, String userId, MemoryKind kind, String text, UUID sessionId,
            List<UUID> turnIds, String dedupKey, String topic) {
        this(tenant, userId, kind, text, sessionId, turnIds, dedupKey, topic, null);
    }
}
