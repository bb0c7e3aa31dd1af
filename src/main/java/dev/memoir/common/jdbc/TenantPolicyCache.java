package dev.memoir.common.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A tenant's own policy row, read on every text or memory and so kept per tenant for a refresh period: a change made
 * on another instance applies there within it, a change made here at once ({@link #forget}). One for the redaction
 * policies, one for the poisoning policies.
 */
public final class TenantPolicyCache<V> {

    private record Cached<V>(V value, Instant readAt) {}

    private final Map<UUID, Cached<V>> cache = new ConcurrentHashMap<>();
    private final Function<UUID, V> read;
    private final Supplier<Duration> refresh;

    public TenantPolicyCache(Function<UUID, V> read, Supplier<Duration> refresh) {
        this.read = read;
        this.refresh = refresh;
    }

    public V get(UUID tenant) {
        Cached<V> cached = cache.get(tenant);
        if (cached == null || cached.readAt().plus(refresh.get()).isBefore(Instant.now())) {
            cached = new Cached<>(read.apply(tenant), Instant.now());
            cache.put(tenant, cached);
        }
        return cached.value();
    }

    /**
     * Forgets the tenant's policy now and again once the caller's transaction ends: a read in between would cache the
     * policy from before the change.
     */
    public void forget(UUID tenant) {
        cache.remove(tenant);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    cache.remove(tenant);
                }
            });
        }
    }
}
