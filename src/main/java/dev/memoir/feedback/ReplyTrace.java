package dev.memoir.feedback;

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

/** What a reply was given and what it cited: the memories behind an answer the user may later judge. */
@Entity
@Table(name = "reply_traces")
class ReplyTrace extends NewUntilStored<UUID> {

    @Id
    private UUID turnId;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] memoryIds;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "double precision[]")
    private double[] scores;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] citedIds;

    // Null for replies traced before trust was recorded (V59).
    @Column(columnDefinition = "text[]")
    private String[] memoryTrust;

    protected ReplyTrace() {}

    @Override
    public UUID getId() {
        return turnId;
    }

    ReplyTrace(
            UUID tenantId,
            UUID turnId,
            List<UUID> memoryIds,
            double[] scores,
            List<UUID> citedIds,
            List<String> memoryTrust) {
        this.tenantId = tenantId;
        this.memoryTrust = memoryTrust.toArray(String[]::new);
        this.turnId = turnId;
        this.memoryIds = memoryIds.toArray(UUID[]::new);
        this.scores = scores;
        this.citedIds = citedIds.toArray(UUID[]::new);
    }

    List<UUID> getMemoryIds() {
        return Arrays.asList(memoryIds);
    }

    double[] getScores() {
        return scores.clone();
    }

    /** Each given memory's trust when it was given, by position; empty for a trace from before V59. */
    List<String> getMemoryTrust() {
        return memoryTrust == null ? List.of() : Arrays.asList(memoryTrust);
    }

    List<UUID> getCitedIds() {
        return Arrays.asList(citedIds);
    }
}
