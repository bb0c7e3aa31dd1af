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
import org.hibernate.type.SqlTypes;

import dev.memoir.memory.Speaker;

/** A personal summary extracted from a session, waiting to be added or merged into the user's topic memories. */
@Entity
@Table(name = "topic_candidates")
class TopicCandidate {

    @Id
    private UUID id;

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

    protected TopicCandidate() {
    }

    TopicCandidate(UUID tenantId, UUID sessionId, Speaker speaker, int position, String summary,
            List<UUID> turnIds) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.sessionId = sessionId;
        this.speaker = speaker;
        this.position = position;
        this.summary = summary;
        this.turnIds = turnIds.toArray(UUID[]::new);
    }

    UUID getId() {
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
