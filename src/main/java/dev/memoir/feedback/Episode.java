package dev.memoir.feedback;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

/**
 * A learning episode (RAM): a question the assistant answered, the trials that followed the user's
 * feedback, and what was learned when it ended. The whole reasoning trace is kept.
 */
@Entity
@Table(name = "episodes")
class Episode extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private String userId;

    private UUID sessionId;

    private UUID questionTurnId;

    private UUID replyTurnId;

    private String question;

    @Enumerated(EnumType.STRING)
    private EpisodeStatus status;

    @Convert(converter = TrialsConverter.class)
    @ColumnTransformer(write = "cast(? as jsonb)")
    @Column(columnDefinition = "jsonb")
    private List<Trial> trials;

    private String learned;

    private UUID learnedMemoryId;

    private Instant createdAt;

    private Instant updatedAt;

    protected Episode() {}

    Episode(
            UUID tenantId,
            String userId,
            UUID sessionId,
            UUID questionTurnId,
            UUID replyTurnId,
            String question,
            Trial first) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.userId = userId;
        this.sessionId = sessionId;
        this.questionTurnId = questionTurnId;
        this.replyTurnId = replyTurnId;
        this.question = question;
        this.status = EpisodeStatus.OPEN;
        this.trials = List.of(first);
        this.createdAt = Instant.now();
        this.updatedAt = createdAt;
    }

    /** Records the user's feedback on the latest trial. */
    void feedbackOnLatest(Trial.FeedbackNote note) {
        List<Trial> updated = new ArrayList<>(trials);
        updated.set(updated.size() - 1, updated.getLast().withFeedback(note));
        trials = List.copyOf(updated);
        updatedAt = Instant.now();
    }

    void addTrial(Trial trial, EpisodeStatus newStatus) {
        List<Trial> updated = new ArrayList<>(trials);
        updated.add(trial);
        trials = List.copyOf(updated);
        status = newStatus;
        updatedAt = Instant.now();
    }

    void end(EpisodeStatus endStatus, String learnedText, UUID memoryId) {
        status = endStatus;
        learned = learnedText;
        learnedMemoryId = memoryId;
        updatedAt = Instant.now();
    }

    EpisodeView view() {
        return new EpisodeView(
                id,
                sessionId,
                questionTurnId,
                replyTurnId,
                question,
                status,
                trials,
                learned,
                learnedMemoryId,
                createdAt,
                updatedAt);
    }

    @Override
    public UUID getId() {
        return id;
    }

    UUID getTenantId() {
        return tenantId;
    }

    String getUserId() {
        return userId;
    }

    UUID getSessionId() {
        return sessionId;
    }

    UUID getQuestionTurnId() {
        return questionTurnId;
    }

    UUID getReplyTurnId() {
        return replyTurnId;
    }

    String getQuestion() {
        return question;
    }

    EpisodeStatus getStatus() {
        return status;
    }

    List<Trial> getTrials() {
        return trials;
    }
}
