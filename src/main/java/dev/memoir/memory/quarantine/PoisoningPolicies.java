package dev.memoir.memory.quarantine;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Each tenant's poisoning policy: its own ({@code poisoning_policies}, V57) or the deployment's. Read for every memory
 * written, so kept per tenant for {@code memoir.quarantine.policy-refresh}; a change made here applies here at once.
 */
@Component
public class PoisoningPolicies {

    private record Cached(Optional<PoisoningPolicy> own, Instant readAt) {}

    private final JdbcClient jdbc;
    private final QuarantineProperties properties;
    private final Map<UUID, Cached> cache = new ConcurrentHashMap<>();

    PoisoningPolicies(JdbcClient jdbc, QuarantineProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    public PoisoningPolicy of(UUID tenant) {
        return own(tenant).orElse(properties.policy());
    }

    public Optional<PoisoningPolicy> own(UUID tenant) {
        Cached cached = cache.get(tenant);
        if (cached == null || cached.readAt().plus(properties.policyRefresh()).isBefore(Instant.now())) {
            cached = new Cached(read(tenant), Instant.now());
            cache.put(tenant, cached);
        }
        return cached.own();
    }

    public PoisoningPolicy deploymentDefault() {
        return properties.policy();
    }

    /** Sets the tenant's own policy, or (null) gives it back to the deployment's, in the caller's transaction. */
    public void set(UUID tenant, PoisoningPolicy policy) {
        if (policy == null) {
            jdbc.sql("delete from poisoning_policies where tenant_id = :tenant")
                    .param("tenant", tenant)
                    .update();
        } else {
            jdbc.sql("""
                            insert into poisoning_policies (tenant_id, policy, updated_at) values (:tenant, :policy, now())
                            on conflict (tenant_id) do update set policy = excluded.policy, updated_at = now()""")
                    .param("tenant", tenant)
                    .param("policy", policy.wireName())
                    .update();
        }
        forget(tenant);
    }

    private Optional<PoisoningPolicy> read(UUID tenant) {
        return jdbc.sql("select policy from poisoning_policies where tenant_id = :tenant")
                .param("tenant", tenant)
                .query(String.class)
                .optional()
                .map(PoisoningPolicy::fromWireName);
    }

    // Forgotten now and again once the change commits: a read in between would cache the policy before the change.
    private void forget(UUID tenant) {
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
