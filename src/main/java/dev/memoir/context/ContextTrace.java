package dev.memoir.context;

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

/** What one context request was shown, by memory id, and what a reply later cited of it. */
@Entity
@Table(name = "context_traces")
class ContextTrace extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    @Column(updatable = false)
    private String userId;

    @Column(updatable = false)
    private UUID sessionId;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]", updatable = false)
    private UUID[] entryIds;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "double precision[]", updatable = false)
    private double[] scores;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]", updatable = false)
    private UUID[] pinnedIds;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] citedIds;

    // Both null for traces from before V60.
    @Column(columnDefinition = "text[]", updatable = false)
    private String[] entryTrust;

    @Column(updatable = false)
    private String minTrust;

    @Column(updatable = false, insertable = false)
    private Instant createdAt;

    protected ContextTrace() {}

    ContextTrace(
            UUID id,
            UUID tenantId,
            String userId,
            UUID sessionId,
            List<UUID> entryIds,
            double[] scores,
            List<UUID> pinnedIds,
            List<String> entryTrust,
            String minTrust) {
        this.id = id;
        this.entryTrust = entryTrust.toArray(String[]::new);
        this.minTrust = minTrust;
        this.tenantId = tenantId;
        this.userId = userId;
        this.sessionId = sessionId;
        this.entryIds = entryIds.toArray(UUID[]::new);
        this.scores = scores;
        this.pinnedIds = pinnedIds.toArray(UUID[]::new);
        this.citedIds = new UUID[0];
    }

    @Override
    public UUID getId() {
        return id;
    }

    String getUserId() {
        return userId;
    }

    UUID getSessionId() {
        return sessionId;
    }

    List<UUID> getEntryIds() {
        return Arrays.asList(entryIds);
    }

    double[] getScores() {
        return scores.clone();
    }

    List<UUID> getPinnedIds() {
        return Arrays.asList(pinnedIds);
    }

    /** Each entry's trust when shown, by position; empty for a trace from before V60. */
    List<String> getEntryTrust() {
        return entryTrust == null ? List.of() : Arrays.asList(entryTrust);
    }

    String getMinTrust() {
        return minTrust;
    }

    List<UUID> getCitedIds() {
        return Arrays.asList(citedIds);
    }

    Instant getCreatedAt() {
        return createdAt;
    }

    void cite(List<UUID> cited) {
        this.citedIds = cited.toArray(UUID[]::new);
    }
}
