package dev.memoir.writing;

import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.PartitionKey;

import dev.memoir.common.jdbc.NewUntilStored;

/** How far a session has been handed to memo writing: the first turn position not yet covered by a memo job. */
@Entity
@Table(name = "memo_progress")
class MemoProgress extends NewUntilStored<UUID> {

    @Id
    private UUID sessionId;

    // The tenant keys the row and distributes it on Citus (docs/scaling.md): never changes, never in an UPDATE,
    // and named beside the id in Hibernate's UPDATE and DELETE of the row, which then run on the tenant's shard.
    @PartitionKey
    @Column(updatable = false)
    private UUID tenantId;

    private int nextSeq;

    protected MemoProgress() {}

    @Override
    public UUID getId() {
        return sessionId;
    }

    MemoProgress(UUID tenantId, UUID sessionId) {
        this.tenantId = tenantId;
        this.sessionId = sessionId;
        this.nextSeq = 0;
    }

    int getNextSeq() {
        return nextSeq;
    }

    void coveredUpTo(int seq) {
        nextSeq = seq + 1;
    }
}
