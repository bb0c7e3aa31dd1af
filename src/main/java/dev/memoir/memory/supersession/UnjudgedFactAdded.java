package dev.memoir.memory.supersession;

import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * A client added a new fact without saying what it supersedes, so Memoir judges that. Published synchronously in
 * the transaction that stores the fact: the job that judges it is queued in that transaction, so that it exists
 * exactly when the fact does.
 */
public record UnjudgedFactAdded(TenantId tenant, UUID factId) {}
