package dev.memoir.writing;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.PartitionKey;

import dev.memoir.common.jdbc.NewUntilStored;

/** A closed session waiting to be folded into its user's recursive summary. */
@Entity
@Table(name = "summary_folds")
class SummaryFold extends NewUntilStored<UUID> {

    @Id
    private UUID sessionId;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private String userId;

    private Instant closedAt;

    private Instant foldedAt;

    protected SummaryFold() {}

    @Override
    public UUID getId() {
        return sessionId;
    }

    SummaryFold(UUID sessionId, UUID tenantId, String userId) {
        this.sessionId = sessionId;
        this.tenantId = tenantId;
        this.userId = userId;
        this.closedAt = Instant.now();
    }

    UUID getSessionId() {
        return sessionId;
    }

    UUID getTenantId() {
        return tenantId;
    }

    String getUserId() {
        return userId;
    }

    void folded() {
        foldedAt = Instant.now();
    }
}
