package dev.memoir.jobs;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * Whether a tenant's job should wait before it runs (its budget is used up, say): asked before each run of a
 * {@linkplain Jobs#tenantTask tenant's job}. A held job is not a failure: it keeps its place, counts no retry, is shown
 * as {@code deferred}, and runs when it is looked at again and no longer held, or when {@link Jobs#resumeHeld} brings
 * it forward.
 */
public interface JobHold {

    /** When to look again, or empty to run the job now. {@code sessionId} is the job's session, if it has one. */
    Optional<Instant> heldUntil(TenantId tenant, UUID sessionId);
}
