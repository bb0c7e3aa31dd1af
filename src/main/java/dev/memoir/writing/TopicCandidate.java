package dev.memoir.writing;

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
import dev.memoir.memory.api.Speaker;

/** A personal summary extracted from a session, waiting to be added or merged into the user's topic memories. */
@Entity
@Table(name = "topic_candidates")
class TopicCandidate extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private UUID sessionId;

    private Speaker speaker;

    private int position;

    private String summary;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] turnIds;

    private Instant appliedAt;

    protected TopicCandidate() {}

    TopicCandidate(UUID tenantId, UUID sessionId, Speaker speaker, int position, String summary, List<UUID> turnIds) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.sessionId = sessionId;
        this.speaker = speaker;
        this.position = position;
        this.summary = summary;
        this.turnIds = turnIds.toArray(UUID[]::new);
    }

    @Override
    public UUID getId() {
        return id;
    }

    Speaker getSpeaker() {
        return speaker;
    }

    String getSummary() {
        return summary;
    }

    List<UUID> getTurnIds() {
        return Arrays.asList(turnIds);
    }

    void applied() {
        appliedAt = Instant.now();
    }
}
