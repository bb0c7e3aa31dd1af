package dev.memoir.tenant;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "api_keys")
class ApiKey {

    @Id
    private UUID id;

    private UUID tenantId;

    private String keyHash;

    private String keyPrefix;

    private Instant createdAt;

    private Instant revokedAt;

    protected ApiKey() {
    }

    ApiKey(UUID tenantId, String keyHash, String keyPrefix) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.keyHash = keyHash;
        this.keyPrefix = keyPrefix;
        this.createdAt = Instant.now();
    }

    UUID getTenantId() {
        return tenantId;
    }

    boolean isActive() {
        return revokedAt == null;
    }
}
