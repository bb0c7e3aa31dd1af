package dev.memoir.tenant;

import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.common.web.ConflictException;
import dev.memoir.common.web.Cursor;
import dev.memoir.common.web.NotFoundException;

@Service
class TenantService {

    private final TenantRepository tenants;
    private final ApiKeyRepository apiKeys;
    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    TenantService(
            TenantRepository tenants, ApiKeyRepository apiKeys, JdbcClient jdbc, ApplicationEventPublisher events) {
        this.tenants = tenants;
        this.events = events;
        this.apiKeys = apiKeys;
        this.jdbc = jdbc;
    }

    @Transactional
    TenantCreated create(String name) {
        Tenant tenant = tenants.save(new Tenant(name.strip()));
        return new TenantCreated(
                tenant.getId(), tenant.getName(), issueKey(tenant.getId()).apiKey());
    }

    /**
     * Keys are looked up on every request, never cached, so a revoked key is refused from its revocation on. One
     * plain query: through a JPA repository and its transaction, the lookup was a large part of an import's own work
     * (docs/benchmarks.md#import-speed).
     */
    Optional<Authenticated> authenticate(String key) {
        return jdbc.sql("select tenant_id, id from api_keys where key_hash = ? and revoked_at is null")
                .param(ApiKeys.hash(key))
                .query((rs, row) -> new Authenticated(
                        new TenantId(rs.getObject("tenant_id", UUID.class)), rs.getObject("id", UUID.class)))
                .optional();
    }

    /** The tenant a key belongs to, and the key's id (who acted, in the audit trail). */
    record Authenticated(TenantId tenant, UUID keyId) {}

    @Transactional(readOnly = true)
    TenantPage list(String cursorToken, int limit) {
        Cursor after = Cursor.decode(cursorToken, "tenants", 2);
        List<TenantView> fetched = jdbc.sql("""
                        select t.id, t.name, t.created_at,
                               (select count(*) from api_keys k where k.tenant_id = t.id and k.revoked_at is null)
                                   as active_keys
                        from tenants t
                        where cast(:afterTime as timestamptz) is null
                           or (t.created_at, t.id) > (cast(:afterTime as timestamptz), cast(:afterId as uuid))
                        order by t.created_at, t.id
                        limit :limit""")
                .param("afterTime", after == null ? null : Timestamp.from(after.instant(0)))
                .param("afterId", after == null ? null : after.uuid(1))
                .param("limit", limit + 1)
                .query((rs, row) -> new TenantView(
                        rs.getObject("id", UUID.class),
                        rs.getString("name"),
                        rs.getTimestamp("created_at").toInstant(),
                        rs.getInt("active_keys")))
                .list();
        Cursor.Page<TenantView> page =
                Cursor.page(fetched, limit, t -> Cursor.encode("tenants", t.createdAt(), t.id()));
        return new TenantPage(page.items(), page.nextCursor());
    }

    @Transactional
    ApiKeyCreated createKey(UUID tenantId) {
        requireTenant(tenantId);
        return issueKey(tenantId);
    }

    @Transactional(readOnly = true)
    ApiKeyList keys(UUID tenantId) {
        requireTenant(tenantId);
        return new ApiKeyList(apiKeys.findByTenantIdOrderByCreatedAtAscIdAsc(tenantId).stream()
                .map(ApiKey::view)
                .toList());
    }

    /** A new key in place of the old one, which is refused from the moment this commits. */
    @Transactional
    ApiKeyCreated rotateKey(UUID tenantId, UUID keyId) {
        ApiKey old = key(tenantId, keyId);
        if (!old.isActive()) {
            throw new ConflictException("key-revoked", "API key " + keyId + " is revoked; create a new key instead");
        }
        old.revoke();
        audit(tenantId, "key.revoked", keyId);
        return issueKey(tenantId);
    }

    @Transactional
    ApiKeyView revokeKey(UUID tenantId, UUID keyId) {
        ApiKey key = key(tenantId, keyId);
        if (key.isActive()) {
            key.revoke();
            audit(tenantId, "key.revoked", keyId);
        }
        return key.view();
    }

    private void audit(UUID tenantId, String action, UUID keyId) {
        events.publishEvent(Audited.of(tenantId, action, null, List.of(keyId), Map.of()));
    }

    private ApiKey key(UUID tenantId, UUID keyId) {
        return apiKeys.findByIdAndTenantId(keyId, tenantId).orElseThrow(() -> new NotFoundException("API key", keyId));
    }

    private void requireTenant(UUID tenantId) {
        tenants.findById(tenantId).orElseThrow(() -> new NotFoundException("Tenant", tenantId));
    }

    private ApiKeyCreated issueKey(UUID tenantId) {
        String key = ApiKeys.newKey();
        ApiKeyView view = apiKeys.save(new ApiKey(tenantId, ApiKeys.hash(key), key.substring(0, 8)))
                .view();
        audit(tenantId, "key.created", view.id());
        return new ApiKeyCreated(view.id(), view.prefix(), view.createdAt(), key);
    }
}
