package dev.memoir.tenant;

import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.web.ConflictException;
import dev.memoir.common.web.NotFoundException;
import dev.memoir.common.wire.Cursor;

@Service
class TenantService {

    private final TenantRepository tenants;
    private final ApiKeyRepository apiKeys;
    private final JdbcClient jdbc;

    TenantService(TenantRepository tenants, ApiKeyRepository apiKeys, JdbcClient jdbc) {
        this.tenants = tenants;
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
    Optional<TenantId> authenticate(String key) {
        return jdbc.sql("select tenant_id from api_keys where key_hash = ? and revoked_at is null")
                .param(ApiKeys.hash(key))
                .query(UUID.class)
                .optional()
                .map(TenantId::new);
    }

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
        return issueKey(tenantId);
    }

    @Transactional
    ApiKeyView revokeKey(UUID tenantId, UUID keyId) {
        ApiKey key = key(tenantId, keyId);
        key.revoke();
        return key.view();
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
        return new ApiKeyCreated(view.id(), view.prefix(), view.createdAt(), key);
    }
}
