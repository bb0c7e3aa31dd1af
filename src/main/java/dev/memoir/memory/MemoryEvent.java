package dev.memoir.memory;

import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * A memory was created, changed or deleted: published inside the transaction that makes the change, so that what
 * listens (webhook deliveries) is queued exactly when the change commits. {@code text} is the memory's text after
 * the change (null when deleted); listeners pass it on only where it was asked for.
 *
 * @param reason why: for an update the revision's reason ({@code edit}, {@code merge}, {@code recursive-summary},
 *               ...), for a deletion who deleted it ({@code client}); null for a creation
 */
public record MemoryEvent(Type type, TenantId tenant, String userId, UUID memoryId, MemoryKind kind, String reason,
        String text) {

    public enum Type {
        CREATED, UPDATED, DELETED
    }
}
