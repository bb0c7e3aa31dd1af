package dev.memoir.session.api;

import java.util.UUID;

import dev.memoir.memory.MemorySettings;
import dev.memoir.tenant.TenantId;

/**
 * Published inside the transaction that closes a session, so that the work it triggers is queued atomically.
 * {@code lastSeq} is the position of the session's last turn (-1 for an empty session).
 */
public record SessionClosed(TenantId tenant, String userId, UUID sessionId, MemorySettings settings, int lastSeq) {}
