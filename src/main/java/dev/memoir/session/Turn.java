package dev.memoir.session;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

import org.springframework.data.domain.Persistable;

@Entity
@Table(name = "turns")
class Turn implements Persistable<UUID> {

    @Id
    private UUID id;

    // The id is assigned here, so Spring Data cannot tell a new turn by a null id: without this flag every save
    // would be a merge, which reads the row before inserting it.
    @Transient
    private boolean isNew = true;

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

    @Override
    public UUID getId() {
        return id;
    }

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostLoad
    @PostPersist
    void markStored() {
        this.isNew = false;
    }

    TurnView view() {
        return new TurnView(id, sessionId, seq, role, content, createdAt, occurredAt, replyTo);
    }
}
