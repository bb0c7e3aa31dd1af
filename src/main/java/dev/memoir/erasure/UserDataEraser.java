package dev.memoir.erasure;

import java.util.List;
import java.util.Map;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.audit.Audited;
import dev.memoir.memory.MemoryErasure;
import dev.memoir.reranker.Reranker;
import dev.memoir.session.SessionDeletion;
import dev.memoir.session.api.ErasedSessions;
import dev.memoir.tenant.TenantId;
import dev.memoir.usage.Usage;

/**
 * Erases everything stored for one user of a tenant, in one transaction: sessions and turns (with what hangs off
 * them: episodes, feedback, reply traces, memo and topic bookkeeping), memories and revisions, and reranker
 * feedback; the user's model usage stays in the tenant's sums, as no one user's. Memory jobs still queued for the
 * user find nothing left and end without writing. All or nothing against
 * any concurrent writer of the user: see {@link #erase}.
 */
@Service
class UserDataEraser {

    private final SessionDeletion sessionDeletion;
    private final Reranker reranker;
    private final MemoryErasure memoryErasure;
    private final Usage usage;
    private final ApplicationEventPublisher events;

    UserDataEraser(
            SessionDeletion sessionDeletion,
            Reranker reranker,
            MemoryErasure memoryErasure,
            Usage usage,
            ApplicationEventPublisher events) {
        this.memoryErasure = memoryErasure;
        this.events = events;
        this.usage = usage;
        this.sessionDeletion = sessionDeletion;
        this.reranker = reranker;
    }

    @Transactional
    UserErasure erase(TenantId tenant, String userId) {
        // The user's lock before anything else, as every writer of the user takes it: an import of the user (which
        // holds it exclusively for the whole import), a chat, a memory job storing what it wrote, a client's add.
        // The erasure waits for those in flight, then deletes what they committed; those that come later wait for
        // the erasure and find nothing. Taking it after the first delete, as before, let an import commit sessions
        // and turns behind that delete's back. No writer holds a session while it waits for this lock, so the
        // deletes below never wait for one that waits for the erasure.
        memoryErasure.holdUser(tenant, userId);
        ErasedSessions erased = sessionDeletion.deleteAllForUser(tenant, userId);
        int memoryCount = memoryErasure.deleteAllForUser(tenant, userId);
        int feedbackCount = reranker.deleteFeedbackOfUser(tenant, userId);
        usage.forgetUser(tenant, userId);
        Audited audited = Audited.of(
                tenant.value(),
                "user.erased",
                userId,
                List.of(),
                Map.of(
                        "sessions",
                        erased.sessions(),
                        "turns",
                        erased.turns(),
                        "memories",
                        memoryCount,
                        "rerankerFeedback",
                        feedbackCount));
        events.publishEvent(audited);
        return new UserErasure(
                userId, erased.sessions(), erased.turns(), memoryCount, feedbackCount, ErasureReceipt.of(audited.id()));
    }
}
