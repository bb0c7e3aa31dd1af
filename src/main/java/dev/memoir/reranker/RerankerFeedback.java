package dev.memoir.reranker;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Array;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.PartitionKey;
import org.hibernate.type.SqlTypes;

import dev.memoir.common.jdbc.NewUntilStored;

/**
 * The reranker's training data for one reply (what the reranker learns from): the query, the candidates
 * in retrieval order with the reranker's scores, the memories shown to the model in the order shown, and the
 * ones its reply cited. Cited memories earn +1, shown but uncited ones -1.
 */
@Entity
@Table(name = "reranker_feedback")
class RerankerFeedback extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private String userId;

    private UUID turnId;

    @JdbcTypeCode(SqlTypes.VECTOR)
    @Array(length = 384)
    private float[] queryEmbedding;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] candidateIds;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "double precision[]")
    private double[] scores;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] shownIds;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] citedIds;

    private long modelVersion;

    private Instant trainedAt;

    private Instant createdAt;

    protected RerankerFeedback() {}

    @Override
    public UUID getId() {
        return id;
    }

    RerankerFeedback(
            UUID tenantId,
            String userId,
            UUID turnId,
            float[] queryEmbedding,
            List<UUID> candidateIds,
            double[] scores,
            List<UUID> shownIds,
            List<UUID> citedIds,
            long modelVersion) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.userId = userId;
        this.turnId = turnId;
        this.queryEmbedding = queryEmbedding;
        this.candidateIds = candidateIds.toArray(UUID[]::new);
        this.scores = scores;
        this.shownIds = shownIds.toArray(UUID[]::new);
        this.citedIds = citedIds.toArray(UUID[]::new);
        this.modelVersion = modelVersion;
        this.createdAt = Instant.now();
    }

    /**
     * The user confirmed the answer: every shown memory now counts as cited, and the reply is learned from again
     * (with its corrected rewards) even if it was learned from before.
     */
    void confirmed() {
        citedIds = shownIds.clone();
        trainedAt = null;
    }

    float[] getQueryEmbedding() {
        return queryEmbedding;
    }

    double[] getScores() {
        return scores.clone();
    }

    long getModelVersion() {
        return modelVersion;
    }

    Instant getCreatedAt() {
        return createdAt;
    }

    List<UUID> getCandidateIds() {
        return Arrays.asList(candidateIds);
    }

    List<UUID> getShownIds() {
        return Arrays.asList(shownIds);
    }

    List<UUID> getCitedIds() {
        return Arrays.asList(citedIds);
    }

    /** The mean reward of the reply: +1 per cited memory, -1 per shown one not cited. */
    double meanReward() {
        if (shownIds.length == 0) {
            return 0;
        }
        List<UUID> cited = getCitedIds();
        return getShownIds().stream()
                .mapToDouble(id -> cited.contains(id) ? 1 : -1)
                .average()
                .orElse(0);
    }

    void trained() {
        trainedAt = Instant.now();
    }
}
