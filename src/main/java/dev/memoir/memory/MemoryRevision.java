package dev.memoir.memory;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One version of a memory's text, kept when the memory is revised (edited, merged or refolded). */
@Entity
@Table(name = "memory_revisions")
class MemoryRevision {

    @Id
    private UUID id;

    private UUID memoryId;

    private int version;

    private String text;

    private UUID sessionId;

    private String reason;

    private Instant createdAt;

    protected MemoryRevision() {
    }

    MemoryRevision(UUID memoryId, int version, String text, UUID sessionId, String reason, Instant createdAt) {
        this.id = UUID.randomUUID();
        this.memoryId = memoryId;
        this.version = version;
        this.text = text;
        this.sessionId = sessionId;
        this.reason = reason;
        this.createdAt = createdAt;
    }

    MemoryRevisionView view() {
        return new MemoryRevisionView(version, text, sessionId, reason, createdAt);
    }
}
