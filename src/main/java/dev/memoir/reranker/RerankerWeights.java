package dev.memoir.reranker;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A tenant's reranker as stored: adaptation weights (null for the identity), version and learning state. */
@Entity
@Table(name = "reranker_models")
class RerankerWeights {

    @Id
    private UUID tenantId;

    private long version;

    private int updates;

    private int dimensions;

    private double baseline;

    private byte[] weights;

    private Instant updatedAt;

    protected RerankerWeights() {}

    RerankerWeights(UUID tenantId, int dimensions) {
        this.tenantId = tenantId;
        this.dimensions = dimensions;
        this.version = 0;
        this.updatedAt = Instant.now();
    }

    RerankerModel model() {
        return RerankerModel.fromBytes(dimensions, weights);
    }

    void learned(RerankerModel model, double newBaseline) {
        this.weights = model.toBytes();
        this.baseline = newBaseline;
        this.updates++;
        this.version++;
        this.updatedAt = Instant.now();
    }

    void reset() {
        this.weights = null;
        this.baseline = 0;
        this.updates = 0;
        this.version++;
        this.updatedAt = Instant.now();
    }

    long getVersion() {
        return version;
    }

    int getUpdates() {
        return updates;
    }

    int getDimensions() {
        return dimensions;
    }

    double getBaseline() {
        return baseline;
    }

    Instant getUpdatedAt() {
        return updatedAt;
    }
}
