package dev.memoir.tenant;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import org.springframework.stereotype.Component;

/**
 * Counts each tenant's writing requests in flight and refuses the one over {@link TenantLimits#concurrentWrites()}.
 * Reads are not counted: they are cheap, and a client polling its memory must never be locked out by its writes.
 */
@Component
class TenantWorkLimiter {

    private final Map<UUID, Semaphore> inFlight = new ConcurrentHashMap<>();
    private final TenantLimits limits;

    TenantWorkLimiter(TenantLimits limits) {
        this.limits = limits;
    }

    static boolean counts(String method) {
        return switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    /** A permit for one request, or null when the tenant already has its limit in flight. */
    Semaphore tryAcquire(TenantId tenant) {
        Semaphore permits = inFlight.computeIfAbsent(tenant.value(), id -> new Semaphore(limits.concurrentWrites()));
        return permits.tryAcquire() ? permits : null;
    }

    long retryAfterSeconds() {
        return Math.max(1, limits.retryAfter().toSeconds());
    }
}
