package dev.memoir.webhook;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.archive.api.ImportFinished;
import dev.memoir.memory.UserMemoryErased;
import dev.memoir.memory.api.MemoryEvent;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.session.api.SessionClosed;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.api.TurnsRecorded;
import dev.memoir.usage.BudgetReached;

/**
 * The other modules' events that webhooks tell of: each queues its deliveries in the transaction of the change, so
 * a delivery exists exactly when the change committed.
 */
@Component
class WebhookTriggers {

    private final WebhookOutbox outbox;
    private final MemoriesWrittenWait memoriesWritten;

    WebhookTriggers(WebhookOutbox outbox, MemoriesWrittenWait memoriesWritten) {
        this.outbox = outbox;
        this.memoriesWritten = memoriesWritten;
    }

    /**
     * A change of a memory. A history memory is the turn itself, not news: no event is sent for it, unless it is
     * quarantined or released (its turn read as instructions to an assistant). A deletion (by
     * the client, expiry, retention or an erasure) also takes the memory's text out of the deliveries that carry it.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onMemoryEvent(MemoryEvent event) {
        boolean screening = event.type() == MemoryEvent.Type.QUARANTINED || event.type() == MemoryEvent.Type.RELEASED;
        if (event.kind() == MemoryKind.HISTORY && !screening) {
            return;
        }
        WebhookEvent type = switch (event.type()) {
            case CREATED -> WebhookEvent.MEMORY_CREATED;
            case UPDATED -> WebhookEvent.MEMORY_UPDATED;
            case DELETED -> WebhookEvent.MEMORY_DELETED;
            case SUPERSEDED -> WebhookEvent.MEMORY_SUPERSEDED;
            case QUARANTINED -> WebhookEvent.MEMORY_QUARANTINED;
            case RELEASED -> WebhookEvent.MEMORY_RELEASED;
        };
        WebhookData data = new WebhookData.MemoryChanged(
                event.userId(), event.memoryId(), event.kind(), event.reason(), event.supersededBy(), null);
        if (event.type() == MemoryEvent.Type.DELETED) {
            outbox.forgetText(event.tenant(), event.memoryId());
        }
        outbox.fanOut(event.tenant(), type, event.userId(), event.memoryId(), data, event.text());
    }

    /** {@code turns.recorded}: once per request that stores turns (a chat's message or reply, an import). */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onTurnsRecorded(TurnsRecorded recorded) {
        WebhookData data = new WebhookData.TurnsRecorded(
                recorded.userId(),
                recorded.sessionId(),
                recorded.turns().stream().map(TurnView::id).toList());
        outbox.fanOut(recorded.tenant(), WebhookEvent.TURNS_RECORDED, recorded.userId(), data);
    }

    /**
     * {@code session.closed}: when a close is asked (by the client, the idle close or an import). Where an endpoint
     * asked for {@code session.memories-written}, a job waits for the session's memory jobs, queued by this same
     * close.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onSessionClosed(SessionClosed closed) {
        outbox.fanOut(
                closed.tenant(),
                WebhookEvent.SESSION_CLOSED,
                closed.userId(),
                new WebhookData.SessionClosed(closed.userId(), closed.sessionId()));
        memoriesWritten.start(closed.tenant(), closed.sessionId());
    }

    /**
     * {@code user.erased}, and nothing about the user after it: the erasure deletes every delivery that names the
     * user, sent or not, in the erasing transaction.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onUserErased(UserMemoryErased erased) {
        outbox.forgetUser(erased.tenant(), erased.userId());
        outbox.fanOut(
                erased.tenant(),
                WebhookEvent.USER_ERASED,
                erased.userId(),
                new WebhookData.UserErased(erased.userId()));
    }

    /**
     * {@code import.finished}: in the transaction of a user archive's import; after the last conversation of an
     * export's (each conversation had its own), in a transaction of its own.
     */
    @EventListener
    @Transactional
    void onImportFinished(ImportFinished finished) {
        outbox.fanOut(
                finished.tenant(),
                WebhookEvent.IMPORT_FINISHED,
                finished.userId(),
                new WebhookData.ImportFinished(finished.userId(), finished.what(), finished.sessions()));
    }

    /**
     * {@code budget.warning} and {@code budget.exhausted}: once a period each, in the transaction that counted the
     * request that reached the threshold.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onBudgetReached(BudgetReached reached) {
        WebhookData data = new WebhookData.BudgetReached(
                reached.userId(),
                reached.period().wireName(),
                reached.policy().wireName(),
                reached.renewsAt().toString(),
                reached.usedTokens(),
                reached.maxTokens(),
                reached.usedCost().stripTrailingZeros(),
                reached.maxCost());
        outbox.fanOut(
                reached.tenant(),
                reached.exhausted() ? WebhookEvent.BUDGET_EXHAUSTED : WebhookEvent.BUDGET_WARNING,
                reached.userId(),
                data);
    }
}
