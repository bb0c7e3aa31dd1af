package dev.memoir.memory;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

import org.hibernate.annotations.Array;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;
import org.springframework.data.domain.Persistable;

@Entity
@Table(name = "memory_records")
class MemoryRecord implements Persistable<UUID> {

    @Id
    private UUID id;

    // The id is assigned here, so Spring Data cannot tell a new record by a null id: without this flag every save
    // would be a merge, which reads the row before inserting it.
    @Transient
    private boolean isNew = true;

    private UUID tenantId;

    private String userId;

    private MemoryKind kind;

    private String text;

    // The column's real dimension comes from the migration (memoir.embedding.dimensions); length here only
    // documents the default.
    @JdbcTypeCode(SqlTypes.VECTOR)
    @Array(length = 384)
    private float[] embedding;

    private UUID sessionId;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "uuid[]")
    private UUID[] turnIds;

    private String dedupKey;

    private String topic;

    private int version;

    private Speaker speaker;

    private Instant createdAt;

    private Instant updatedAt;

    private String embeddingModel;

    // Written once; PostgreSQL fills them from the turns when absent and widens them when turns are added.
    @Column(updatable = false)
    private Instant occurredFrom;

    @Column(updatable = false)
    private Instant occurredTo;

    protected MemoryRecord() {
    }

    MemoryRecord(UUID tenantId, String userId, MemoryKind kind, String text, float[] embedding,
            String embeddingModel, UUID sessionId, List<UUID> turnIds, String dedupKey, String topic, Speaker speaker,
            Instant occurredFrom, Instant occurredTo) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.userId = userId;
        this.kind = kind;
        this.text = text;
        this.embedding = embedding;
        this.embeddingModel = embeddingModel;
        this.occurredFrom = occurredFrom;
        this.occurredTo = occurredTo;
        this.sessionId = sessionId;
        this.turnIds = turnIds.toArray(UUID[]::new);
        this.dedupKey = dedupKey;
        this.topic = topic;
        this.speaker = speaker;
        this.version = 1;
        this.createdAt = Instant.now();
        this.updatedAt = this.createdAt;
        if (turnIds.isEmpty()) {
            // As PostgreSQL would date it (memory_records_time_span), so that the written memory shows its span.
            this.occurredFrom = occurredFrom != null ? occurredFrom : createdAt;
            this.occurredTo = occurredTo != null && occurredTo.isAfter(this.occurredFrom) ? occurredTo
                    : this.occurredFrom;
        }
    }

    /** Replaces the text, which makes a new version. */
    void revise(String newText, float[] newEmbedding, String model) {
        if (kind == MemoryKind.FACT) {
            // A fact's dedup key stands for its text; adding the old text again must add it, not find this one.
            this.dedupKey = null;
        }
        this.text = newText;
        this.embedding = newEmbedding;
        this.embeddingModel = model;
        this.version++;
        this.updatedAt = Instant.now();
    }

    /** The same text embedded by another model: not a new version. */
    void reembed(float[] newEmbedding, String model) {
        this.embedding = newEmbedding;
        this.embeddingModel = model;
    }

    String getEmbeddingModel() {
        return embeddingModel;
    }

    Instant getOccurredFrom() {
        return occurredFrom;
    }

    Instant getOccurredTo() {
        return occurredTo;
    }

    UUID getTenantId() {
        return tenantId;
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

    MemoryKind getKind() {
        return kind;
    }

    String getText() {
        return text;
    }

    float[] getEmbedding() {
        return embedding;
    }

    UUID getSessionId() {
        return sessionId;
    }

    List<UUID> getTurnIds() {
        return turnIds == null ? List.of() : Arrays.asList(turnIds);
    }

    /** Adds turns that the memory now also rests on, keeping dialogue order of first appearance. */
    void addProvenance(List<UUID> moreTurnIds) {
        java.util.LinkedHashSet<UUID> union = new java.util.LinkedHashSet<>(getTurnIds());
        union.addAll(moreTurnIds);
        this.turnIds = union.toArray(UUID[]::new);
    }

    Speaker getSpeaker() {
        return speaker;
    }

    String getTopic() {
        return topic;
    }

    int getVersion() {
        return version;
    }

    Instant getCreatedAt() {
        return createdAt;
    }

    Instant getUpdatedAt() {
        return updatedAt;
    }
}
