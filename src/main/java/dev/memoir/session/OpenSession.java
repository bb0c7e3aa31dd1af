package dev.memoir.session;

import java.util.UUID;

import dev.memoir.memory.MemorySettings;
import dev.memoir.tenant.TenantId;

/** What the chat pipeline needs to know of a session it replies in. */
public record OpenSession(TenantId tenant, UUID id, String userId, MemorySettings settings) {
}
