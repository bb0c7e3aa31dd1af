package dev.memoir.session;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "turns")
class Turn {

    @Id
    private UUID id;

    private UUID sessionId;

    private int seq;

    @Enumerated(EnumType.STRING)
    private Role role;

    private String content;

    private Instant createdAt;

    private Instant occurredAt;

    private UUID replyTo;

    protected Turn() {
    }

    Turn(UUID sessionId, int seq, Role role, String content, Instant occurredAt) {
        this.id = UUID.randomUUID();
        this.sessionId = sessionId;
        this.seq = seq;
        this.role = role;
        this.content = content;
        this.createdAt = Instant.now();
        this.occurredAt = occurredAt;
    }

    /** A turn answering the user turn {@code question} (null for a turn that answers none). */
    Turn(UUID sessionId, int seq, Role role, String content, Instant occurredAt, UUID question) {
        this(sessionId, seq, role, content, occurredAt);
        this.replyTo = question;
    }

    TurnView view() {
        return new TurnView(id, sessionId, seq, role, content, createdAt, occurredAt, replyTo);
    }
}
