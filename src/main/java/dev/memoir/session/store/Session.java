package dev.memoir.session.store;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.PartitionKey;

import dev.memoir.common.jdbc.NewUntilStored;
import dev.memoir.memory.MemorySettings;
import dev.memoir.session.api.SessionRef;
import dev.memoir.tenant.TenantId;

@Entity
@Table(name = "sessions")
public class Session extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private String userId;

    private String title;

    // The client's id for the conversation this session holds part of (docs/api.md, "Conversations"); null for
    // sessions a client manages itself.
    private String conversationId;

    @Enumerated(EnumType.STRING)
    private SessionStatus status;

    @Convert(converter = MemorySettingsConverter.class)
    @ColumnTransformer(write = "cast(? as jsonb)")
    @Column(columnDefinition = "jsonb")
    private MemorySettings settings;

    private Instant createdAt;

    private Instant updatedAt;

    private Instant closedAt;

    private Instant firstTurnAt;

    private Instant lastTurnAt;

    protected Session() {}

    public Session(UUID tenantId, String userId, MemorySettings settings) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.userId = userId;
        this.status = SessionStatus.OPEN;
        this.settings = settings;
        this.createdAt = Instant.now();
        this.updatedAt = createdAt;
    }

    /** A session of an imported conversation, with the id its turns were prepared under and the export's title. */
    public Session(UUID id, UUID tenantId, String userId, MemorySettings settings, String title) {
        this(tenantId, userId, settings);
        this.id = id;
        this.title = title;
    }

    /** A new session of a client's conversation, which goes on in it until it closes. */
    public static Session ofConversation(UUID tenantId, String userId, MemorySettings settings, String conversationId) {
        Session session = new Session(tenantId, userId, settings);
        session.conversationId = conversationId;
        return session;
    }

    public boolean isOpen() {
        return status == SessionStatus.OPEN;
    }

    /** This session, if it is open; 409 otherwise. */
    public Session requireOpen() {
        if (status != SessionStatus.OPEN) {
            throw new SessionClosedException(id);
        }
        return this;
    }

    /** Closes the session; answers whether this call closed it (false if it was already closed). */
    public boolean close() {
        if (status == SessionStatus.CLOSED) {
            return false;
        }
        status = SessionStatus.CLOSED;
        closedAt = Instant.now();
        updatedAt = closedAt;
        return true;
    }

    /** Something was kept in the session: it is not idle. */
    public void touch() {
        updatedAt = Instant.now();
    }

    /** Turns said from {@code first} to {@code last} were stored: the session's dialogue now spans them too. */
    public void heard(Instant first, Instant last) {
        touch();
        if (firstTurnAt == null || first.isBefore(firstTurnAt)) {
            firstTurnAt = first;
        }
        if (lastTurnAt == null || last.isAfter(lastTurnAt)) {
            lastTurnAt = last;
        }
    }

    public Instant getFirstTurnAt() {
        return firstTurnAt;
    }

    public Instant getLastTurnAt() {
        return lastTurnAt;
    }

    @Override
    public UUID getId() {
        return id;
    }

    /** This session as the other features refer to it. */
    public SessionRef ref() {
        return new SessionRef(new TenantId(tenantId), id, userId, settings);
    }

    public UUID getTenantId() {
        return tenantId;
    }

    public String getUserId() {
        return userId;
    }

    public String getConversationId() {
        return conversationId;
    }

    public String getTitle() {
        return title;
    }

    public SessionStatus getStatus() {
        return status;
    }

    public MemorySettings getSettings() {
        return settings;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public Instant getClosedAt() {
        return closedAt;
    }
}
