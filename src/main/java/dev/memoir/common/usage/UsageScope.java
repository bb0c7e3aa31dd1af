package dev.memoir.common.usage;

import java.util.Optional;
import java.util.UUID;

/**
 * Whom the model calls made on this thread are for: the tenant, and where known the user and the session. The model
 * and the embedder are called deep inside pipelines that have no reason to carry a tenant down to them, so the
 * request's filter, a job's runner and a chat turn open a scope around the work, and the usage record reads it at
 * the call. A scope opened inside another narrows it: what the inner one leaves unknown is the outer one's. Closing
 * a scope restores the one it was opened in, so scopes must be closed in the reverse order of opening
 * (try-with-resources).
 */
public final class UsageScope implements AutoCloseable {

    /** Whom a call is for; {@code userId} and {@code sessionId} may be unknown (null). */
    public record Attribution(UUID tenant, String userId, UUID sessionId) {}

    private static final ThreadLocal<Attribution> CURRENT = new ThreadLocal<>();

    /** Set while a background job runs: a budget holds such work back rather than refusing a client. */
    private static final ThreadLocal<Boolean> IN_JOB = new ThreadLocal<>();

    private final Attribution previous;
    private final Boolean previousInJob;

    private UsageScope(Attribution previous) {
        this.previous = previous;
        this.previousInJob = IN_JOB.get();
    }

    /** Like {@link #open}, for the work of a background job. */
    public static UsageScope openJob(UUID tenant, String userId, UUID sessionId) {
        UsageScope scope = open(tenant, userId, sessionId);
        IN_JOB.set(Boolean.TRUE);
        return scope;
    }

    /** Whether the calls made now on this thread are a background job's (no client waits for them). */
    public static boolean inJob() {
        return Boolean.TRUE.equals(IN_JOB.get());
    }

    /** Opens a scope for the tenant's work, narrowing the current one (of the same
     * tenant); a null tenant keeps the current one's. */
    public static UsageScope open(UUID tenant, String userId, UUID sessionId) {
        Attribution outer = CURRENT.get();
        if (outer == null && tenant == null) {
            return new UsageScope(null);
        }
        Attribution inner = outer == null || (tenant != null && !tenant.equals(outer.tenant()))
                ? new Attribution(tenant, userId, sessionId)
                : new Attribution(
                        tenant != null ? tenant : outer.tenant(),
                        userId != null ? userId : outer.userId(),
                        sessionId != null ? sessionId : outer.sessionId());
        CURRENT.set(inner);
        return new UsageScope(outer);
    }

    /** Whom the calls made now on this thread are for; empty outside any tenant's work. */
    public static Optional<Attribution> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    @Override
    public void close() {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
        if (previousInJob == null) {
            IN_JOB.remove();
        } else {
            IN_JOB.set(previousInJob);
        }
    }
}
