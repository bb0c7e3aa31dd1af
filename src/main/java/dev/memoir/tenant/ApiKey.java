package dev.memoir.tenant;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
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

    protected ApiKey() {}

    ApiKey(UUID tenantId, String keyHash, String keyPrefix) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.keyHash = keyHash;
        this.keyPrefix = keyPrefix;
        this.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    UUID getId() {
        return id;
    }

    UUID getTenantId() {
        return tenantId;
    }

    ApiKeyView view() {
        return new ApiKeyView(id, keyPrefix, createdAt, revokedAt);
    }

    /** Revoking a revoked key keeps its first revocation time. */
    void revoke() {
        if (revokedAt == null) {
            // PostgreSQL keeps microseconds: the time answered now is the time listed later.
            revokedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        }
    }

    boolean isActive() {
        return revokedAt == null;
    }
}
