package dev.memoir.feedback;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.PartitionKey;

import dev.memoir.common.jdbc.NewUntilStored;

/** The user's feedback on a reply, kept with the turn it was given on. */
@Entity
@Table(name = "reply_feedback")
class ReplyFeedback extends NewUntilStored<UUID> {

    @Id
    private UUID id;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private UUID turnId;

    private UUID episodeId;

    private String verdict;

    private String hint;

    private String answer;

    private String outcome;

    private Instant createdAt;

    protected ReplyFeedback() {}

    ReplyFeedback(
            UUID tenantId, UUID turnId, UUID episodeId, String verdict, String hint, String answer, String outcome) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.turnId = turnId;
        this.episodeId = episodeId;
        this.verdict = verdict;
        this.hint = hint;
        this.answer = answer;
        this.outcome = outcome;
        this.createdAt = Instant.now();
    }

    void outcome(String newOutcome) {
        this.outcome = newOutcome;
    }

    @Override
    public UUID getId() {
        return id;
    }
}
