package dev.memoir.memory.revision;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.PartitionKey;
import org.hibernate.type.SqlTypes;

import dev.memoir.common.jdbc.NewUntilStored;
import dev.memoir.memory.revision.MemoryRevisionView.Absorbed;

/** One version of a memory's text, kept when the memory is revised (edited, merged or refolded). */
@Entity
@Table(name = "memory_revisions")
public class MemoryRevision extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    // With the tenant and the memory, the memory's whole key, which the foreign key names (V39).
    @Column(updatable = false)
    private String userId;

    private UUID memoryId;

    private int version;

    private String text;

    private UUID sessionId;

    private String reason;

    private String absorbedText;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] absorbedTurnIds;

    private Instant createdAt;

    protected MemoryRevision() {}

    @Override
    public UUID getId() {
        return id;
    }

    MemoryRevision(
            UUID tenantId,
            String userId,
            UUID memoryId,
            int version,
            String text,
            UUID sessionId,
            String reason,
            Instant createdAt) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.userId = userId;
        this.memoryId = memoryId;
        this.version = version;
        this.text = text;
        this.sessionId = sessionId;
        this.reason = reason;
        this.createdAt = createdAt;
    }

    public MemoryRevision absorbing(String text, List<UUID> turnIds) {
        this.absorbedText = text;
        this.absorbedTurnIds = turnIds.toArray(UUID[]::new);
        return this;
    }

    MemoryRevisionView view() {
        return new MemoryRevisionView(
                version,
                text,
                sessionId,
                reason,
                absorbedText == null ? null : new Absorbed(absorbedText, Arrays.asList(absorbedTurnIds)),
                createdAt);
    }
}
