package dev.memoir.memory.quarantine;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.common.jdbc.TenantPolicyCache;

/**
 * Each tenant's poisoning policy: its own ({@code poisoning_policies}, V57) or the deployment's. Read for every memory
 * written, so kept per tenant for {@code memoir.quarantine.policy-refresh}; a change made here applies here at once.
 */
@Component
public class PoisoningPolicies {

    private final JdbcClient jdbc;
    private final QuarantineProperties properties;
    private final TenantPolicyCache<Optional<PoisoningPolicy>> cache;

    PoisoningPolicies(JdbcClient jdbc, QuarantineProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.cache = new TenantPolicyCache<>(this::read, properties::policyRefresh);
    }

    public PoisoningPolicy of(UUID tenant) {
        return own(tenant).orElse(properties.policy());
    }

    public Optional<PoisoningPolicy> own(UUID tenant) {
        return cache.get(tenant);
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
        cache.forget(tenant);
    }

    private Optional<PoisoningPolicy> read(UUID tenant) {
        return jdbc.sql("select policy from poisoning_policies where tenant_id = :tenant")
                .param("tenant", tenant)
                .query(String.class)
                .optional()
                .map(PoisoningPolicy::fromWireName);
    }
}
