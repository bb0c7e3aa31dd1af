package dev.memoir.memory.api;

import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * A memory was created, changed or deleted: published inside the transaction that makes the change, so that what
 * listens (webhook deliveries) is queued exactly when the change commits. {@code text} is the memory's text after
 * the change (null when deleted); listeners pass it on only where it was asked for.
 *
 * @param reason why: for an update the revision's reason ({@code edit}, {@code merge}, {@code recursive-summary},
 *               ...), for a deletion who or what deleted it ({@code client}, {@code expiry}, {@code retention});
 *               null for a creation or a supersession
 */
public record MemoryEvent(
        Type type,
        TenantId tenant,
        String userId,
        UUID memoryId,
        MemoryKind kind,
        String reason,
        String text,
        UUID supersededBy) {

    public MemoryEvent(
            Type type, TenantId tenant, String userId, UUID memoryId, MemoryKind kind, String reason, String text) {
        this(type, tenant, userId, memoryId, kind, reason, text, null);
    }

    public enum Type {
        CREATED,
        UPDATED,
        DELETED,
        /** No longer read: a newer memory ({@code supersededBy}) supersedes it. */
        SUPERSEDED,
        /**
         * Not read into replies or searches: its text reads as instructions to an assistant ({@code reason}: the
         * signs found), until released.
         */
        QUARANTINED,
        /** A quarantined memory let in by a client or the operator: read from now on. */
        RELEASED
    }
}
