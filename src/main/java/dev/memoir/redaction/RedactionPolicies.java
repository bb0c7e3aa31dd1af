package dev.memoir.redaction;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.common.jdbc.TenantPolicyCache;

/**
 * Each tenant's redaction policy: the deployment's ({@code memoir.redaction.*}) with the tenant's own choices over
 * it ({@code redaction_policies}, V56). Read on every text that reaches Memoir, so kept per tenant for
 * {@code memoir.redaction.policy-refresh}; a change made here applies here at once.
 */
@Component
class RedactionPolicies {

    private final JdbcClient jdbc;
    private final RedactionProperties properties;
    private final ApplicationEventPublisher events;
    private final TenantPolicyCache<Map<SecretClass, RedactionAction>> cache;

    RedactionPolicies(JdbcClient jdbc, RedactionProperties properties, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.cache = new TenantPolicyCache<>(this::read, properties::policyRefresh);
        this.events = events;
    }

    /** What is done with each class in the tenant's texts. */
    Map<SecretClass, RedactionAction> effective(UUID tenant) {
        Map<SecretClass, RedactionAction> effective = properties.defaults();
        effective.putAll(own(tenant));
        return effective;
    }

    /** The classes the tenant chose for itself. */
    Map<SecretClass, RedactionAction> own(UUID tenant) {
        return cache.get(tenant);
    }

    Map<SecretClass, RedactionAction> defaults() {
        return properties.defaults();
    }

    String phoneRegion() {
        return properties.phoneRegion();
    }

    /** Sets the tenant's choice for each class given; a null action gives the class back to the deployment's. */
    @Transactional
    void set(UUID tenant, Map<SecretClass, RedactionAction> changes) {
        Map<String, Object> audited = new TreeMap<>();
        changes.forEach((kind, action) -> {
            if (action == null) {
                jdbc.sql("delete from redaction_policies where tenant_id = :tenant and class = :class")
                        .param("tenant", tenant)
                        .param("class", kind.wireName())
                        .update();
            } else {
                jdbc.sql("""
                                insert into redaction_policies (tenant_id, class, action, updated_at)
                                values (:tenant, :class, :action, now())
                                on conflict (tenant_id, class) do update
                                    set action = excluded.action, updated_at = excluded.updated_at""")
                        .param("tenant", tenant)
                        .param("class", kind.wireName())
                        .param("action", action.wireName())
                        .update();
            }
            audited.put(kind.wireName(), action == null ? "default" : action.wireName());
        });
        events.publishEvent(Audited.of(tenant, "redaction.policy-set", null, List.of(), audited));
        cache.forget(tenant);
    }

    /** Gives every class back to the deployment's policy. */
    @Transactional
    void reset(UUID tenant) {
        jdbc.sql("delete from redaction_policies where tenant_id = :tenant")
                .param("tenant", tenant)
                .update();
        events.publishEvent(Audited.of(tenant, "redaction.policy-reset", null, List.of(), Map.of()));
        cache.forget(tenant);
    }

    private Map<SecretClass, RedactionAction> read(UUID tenant) {
        Map<SecretClass, RedactionAction> own = new EnumMap<>(SecretClass.class);
        jdbc.sql("select class, action from redaction_policies where tenant_id = :tenant")
                .param("tenant", tenant)
                .query((rs, row) -> {
                    own.put(
                            SecretClass.fromWireName(rs.getString("class")),
                            RedactionAction.fromWireName(rs.getString("action")));
                    return null;
                })
                .list();
        return own;
    }
}
