package dev.memoir.erasure;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.memory.MemoryErasure;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.SessionDeletion;
import dev.memoir.session.api.SessionForDeletion;
import dev.memoir.tenant.TenantId;

/**
 * Deletes one session with what was derived from it alone, in one transaction: its turns (and the episodes,
 * feedback, traces and job records hanging off them), the memories written from it, and the reranker's training
 * examples taken from its replies. Memories that combine several sessions stay (see
 * {@link MemoryErasure#deleteAllOfSession}).
 */
@Service
class SessionEraser {

    private final SessionDeletion sessionDeletion;
    private final Reranker reranker;
    private final MemoryErasure memoryErasure;
    private final ApplicationEventPublisher events;

    SessionEraser(
            SessionDeletion sessionDeletion,
            Reranker reranker,
            MemoryErasure memoryErasure,
            ApplicationEventPublisher events) {
        this.memoryErasure = memoryErasure;
        this.events = events;
        this.sessionDeletion = sessionDeletion;
        this.reranker = reranker;
    }

    @Transactional
    SessionErasure erase(TenantId tenant, UUID sessionId) {
        // The session first: its lock waits for a memory job writing from it, whose memory is then deleted below.
        SessionForDeletion session = sessionDeletion.lockForDeletion(tenant, sessionId);
        int memoryCount = memoryErasure.deleteAllOfSession(tenant, session.userId(), sessionId);
        int feedbackCount = reranker.deleteFeedbackOfTurns(tenant, session.turnIds());
        int turnCount = sessionDeletion.delete(tenant, sessionId);
        Audited audited = Audited.of(
                tenant.value(),
                "session.erased",
                session.userId(),
                List.of(sessionId),
                Map.of("turns", turnCount, "memories", memoryCount, "rerankerFeedback", feedbackCount));
        events.publishEvent(audited);
        return new SessionErasure(sessionId, turnCount, memoryCount, feedbackCount, ErasureReceipt.of(audited.id()));
    }
}
