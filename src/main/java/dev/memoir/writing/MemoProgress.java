package dev.memoir.writing;

import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** How far a session has been handed to memo writing: the first turn position not yet covered by a memo job. */
@Entity
@Table(name = "memo_progress")
class MemoProgress {

    @Id
    private UUID sessionId;

    @Column(updatable = false)
    private UUID tenantId;

    private int nextSeq;

    protected MemoProgress() {
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
