package dev.memoir.session.store;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.PartitionKey;

import dev.memoir.common.jdbc.NewUntilStored;

/**
 * A message of a client's conversation that is not dialogue: a tool call, a tool's result, a system message, a
 * message without visible text. Kept beside the session's turns so that the conversation reads back as it was sent;
 * no memory is written from it. Placed after the turn {@code afterSeq} (-1: before the first), {@code ordinal}-th
 * among those placed there; {@code attached} tool calls belong to the assistant turn at {@code afterSeq}.
 */
@Entity
@Table(name = "side_messages")
public class SideMessage extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private UUID sessionId;

    private int afterSeq;

    private int ordinal;

    private String role;

    private String content;

    @ColumnTransformer(write = "cast(? as jsonb)")
    @Column(columnDefinition = "jsonb")
    private String toolCalls;

    private String toolCallId;

    private String toolName;

    private boolean attached;

    private Instant createdAt;

    protected SideMessage() {}

    public SideMessage(
            UUID tenantId,
            UUID sessionId,
            int afterSeq,
            int ordinal,
            String role,
            String content,
            String toolCallsJson,
            String toolCallId,
            String toolName,
            boolean attached) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.sessionId = sessionId;
        this.afterSeq = afterSeq;
        this.ordinal = ordinal;
        this.role = role;
        this.content = content;
        this.toolCalls = toolCallsJson;
        this.toolCallId = toolCallId;
        this.toolName = toolName;
        this.attached = attached;
        this.createdAt = Instant.now();
    }

    @Override
    public UUID getId() {
        return id;
    }

    public UUID getSessionId() {
        return sessionId;
    }

    public int getAfterSeq() {
        return afterSeq;
    }

    public int getOrdinal() {
        return ordinal;
    }

    public String getRole() {
        return role;
    }

    public String getContent() {
        return content;
    }

    public String getToolCalls() {
        return toolCalls;
    }

    public String getToolCallId() {
        return toolCallId;
    }

    public String getToolName() {
        return toolName;
    }

    public boolean isAttached() {
        return attached;
    }
}
