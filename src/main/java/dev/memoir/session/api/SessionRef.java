package dev.memoir.session.api;

import java.util.UUID;

import dev.memoir.memory.MemorySettings;
import dev.memoir.tenant.TenantId;

/**
 * A session as the other features refer to it: whose it is and how it remembers. Open or closed: the pipelines that
 * hold one (a reply, a memory job, feedback on a reply) each check what they need of its status.
 */
public record SessionRef(TenantId tenant, UUID id, String userId, MemorySettings settings) {}
