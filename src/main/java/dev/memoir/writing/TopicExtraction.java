package dev.memoir.writing;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.memoir.memory.Speaker;

/** Marks that a speaker's personal summaries were extracted from a session (its candidates are stored). */
@Entity
@Table(name = "topic_extractions")
class TopicExtraction {

    @Id
    private UUID id;

    @Column(updatable = false)
    private UUID tenantId;

    private UUID sessionId;

    private Speaker speaker;

    private Instant createdAt;

    protected TopicExtraction() {
    }

    TopicExtraction(UUID tenantId, UUID sessionId, Speaker speaker) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.sessionId = sessionId;
        this.speaker = speaker;
        this.createdAt = Instant.now();
    }
}
