package dev.memoir.erasure;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.memory.MemoryErasure;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.ErasedSessions;
import dev.memoir.session.SessionService;
import dev.memoir.tenant.TenantId;

/**
 * Erases everything stored for one user of a tenant, in one transaction: sessions and turns (with what hangs off
 * them: episodes, feedback, reply traces, memo and topic bookkeeping), memories and revisions, and reranker
 * feedback. Memory jobs still queued for the user find nothing left and end without writing.
 */
@Service
class UserDataEraser {

    private final SessionService sessions;
    private final Reranker reranker;
    private final MemoryErasure memoryErasure;

    UserDataEraser(SessionService sessions, Reranker reranker, MemoryErasure memoryErasure) {
        this.memoryErasure = memoryErasure;
        this.sessions = sessions;
        this.reranker = reranker;
    }

    @Transactional
    UserErasure erase(TenantId tenant, String userId) {
        // Sessions first: deleting them waits for any memory job holding one of them, so that the memory it
        // wrote is committed, and then seen and deleted below.
        ErasedSessions erased = sessions.deleteAllForUser(tenant, userId);
        int memoryCount = memoryErasure.deleteAllForUser(tenant, userId);
        int feedbackCount = reranker.deleteFeedbackOfUser(tenant, userId);
        return new UserErasure(userId, erased.sessions(), erased.turns(), memoryCount, feedbackCount);
    }
}
