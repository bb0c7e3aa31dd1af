package dev.memoir.writing;

import java.util.UUID;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.session.api.SessionClosed;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.api.TurnsRecorded;
import dev.memoir.tenant.TenantId;

/**
 * Queues memory writing that need not block a reply, as durable jobs (see {@link Jobs}) in the transaction of
 * the turn or close that causes it. A job's id is the id of what it works on, so queueing twice is a no-op.
 */
@Component
class MemoryJobs {

    static final TaskDescriptor<Void> CONDITIONAL_MEMORY = TaskDescriptor.of("conditional-memory");
    static final TaskDescriptor<Void> SESSION_SUMMARY = TaskDescriptor.of("session-summary");
    static final TaskDescriptor<Void> MEMO_WRITING = TaskDescriptor.of("memo-writing");
    static final TaskDescriptor<Void> RECURSIVE_SUMMARY = TaskDescriptor.of("recursive-summary");
    static final TaskDescriptor<Void> TOPIC_MEMORY = TaskDescriptor.of("topic-memory");

    private final Jobs jobs;
    private final MemoProgressRepository memoProgress;
    private final SummaryFoldRepository summaryFolds;
    private final MemoProperties memoProperties;

    MemoryJobs(
            Jobs jobs,
            MemoProgressRepository memoProgress,
            SummaryFoldRepository summaryFolds,
            MemoProperties memoProperties) {
        this.jobs = jobs;
        this.memoProgress = memoProgress;
        this.summaryFolds = summaryFolds;
        this.memoProperties = memoProperties;
    }

    @EventListener
    void onTurnsRecorded(TurnsRecorded recorded) {
        if (recorded.settings().writes(MemoryKind.CONDITIONAL)) {
            // One job per user turn, whichever reply judged it worth remembering.
            recorded.worthRemembering()
                    .forEach(userTurnId -> jobs.queue(
                            CONDITIONAL_MEMORY, recorded.tenant(), userTurnId.toString(), recorded.sessionId()));
        }
        if (recorded.settings().writes(MemoryKind.MEMO)) {
            queueDueMemos(recorded);
        }
    }

    /** Hands a long-running session to memo writing each time enough turns have come since its last memo. */
    private void queueDueMemos(TurnsRecorded recorded) {
        int lastSeq = recorded.turns().stream().mapToInt(TurnView::seq).max().orElse(-1);
        MemoProgress progress = memoProgress
                .findBySessionIdAndTenantId(
                        recorded.sessionId(), recorded.tenant().value())
                .orElseGet(() ->
                        memoProgress.save(new MemoProgress(recorded.tenant().value(), recorded.sessionId())));
        // A large import is cut into spans of turnsPerMemo, so that no memo prompt grows with the import.
        while (lastSeq + 1 - progress.getNextSeq() >= memoProperties.turnsPerMemo()) {
            queueMemoWriting(
                    recorded.tenant(),
                    recorded.sessionId(),
                    progress,
                    progress.getNextSeq() + memoProperties.turnsPerMemo() - 1);
        }
    }

    @EventListener
    void onSessionClosed(SessionClosed closed) {
        if (closed.settings().writes(MemoryKind.SUMMARY)) {
            jobs.queue(SESSION_SUMMARY, closed.tenant(), closed.sessionId().toString(), closed.sessionId());
        }
        if (closed.settings().writes(MemoryKind.MEMO)) {
            MemoProgress progress = memoProgress
                    .findBySessionIdAndTenantId(
                            closed.sessionId(), closed.tenant().value())
                    .orElseGet(() ->
                            memoProgress.save(new MemoProgress(closed.tenant().value(), closed.sessionId())));
            if (closed.lastSeq() >= progress.getNextSeq()) {
                queueMemoWriting(closed.tenant(), closed.sessionId(), progress, closed.lastSeq());
            }
        }
        if (closed.settings().writes(MemoryKind.TOPIC)) {
            jobs.queue(TOPIC_MEMORY, closed.tenant(), closed.sessionId().toString(), closed.sessionId());
        }
        if (closed.settings().writes(MemoryKind.RECURSIVE_SUMMARY)) {
            summaryFolds.save(
                    new SummaryFold(closed.sessionId(), closed.tenant().value(), closed.userId()));
            jobs.queue(RECURSIVE_SUMMARY, closed.tenant(), closed.sessionId().toString(), closed.sessionId());
        }
    }

    /** Each memo job owns a fixed span of turns, so jobs of one session never overlap or race. */
    private void queueMemoWriting(TenantId tenant, UUID sessionId, MemoProgress progress, int toSeq) {
        MemoSpan span = new MemoSpan(sessionId, progress.getNextSeq(), toSeq);
        jobs.queue(MEMO_WRITING, tenant, span.id(), sessionId);
        progress.coveredUpTo(toSeq);
    }
}
