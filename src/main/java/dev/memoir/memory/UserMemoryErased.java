package dev.memoir.memory;

import dev.memoir.tenant.TenantId;

/**
 * Every memory of a user was erased (the user's erasure): published inside the erasing transaction, so that
 * listeners (webhooks) forget the user with it.
 */
public record UserMemoryErased(TenantId tenant, String userId) {}
