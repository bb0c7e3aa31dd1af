package dev.memoir.writing;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.PartitionKey;

import dev.memoir.common.jdbc.NewUntilStored;
import dev.memoir.memory.api.Speaker;

/** Marks that a speaker's personal summaries were extracted from a session (its candidates are stored). */
@Entity
@Table(name = "topic_extractions")
class TopicExtraction extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private UUID sessionId;

    private Speaker speaker;

    private Instant createdAt;

    protected TopicExtraction() {}

    @Override
    public UUID getId() {
        return id;
    }

    TopicExtraction(UUID tenantId, UUID sessionId, Speaker speaker) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.sessionId = sessionId;
        this.speaker = speaker;
        this.createdAt = Instant.now();
    }
}
