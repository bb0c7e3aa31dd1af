package dev.memoir.writing;

import java.time.Instant;
import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.memory.MemoryKind;
import dev.memoir.session.SessionClosed;
import dev.memoir.session.TurnView;
import dev.memoir.session.TurnsRecorded;

/**
 * Queues memory writing that need not block a reply. Jobs are rows in PostgreSQL (db-scheduler), queued in the
 * caller's transaction: they exist exactly when the turn or close that caused them was committed, survive a
 * restart, and are retried with back-off. A job's id is the id of what it works on, so queueing twice is a no-op.
 */
@Component
public class MemoryJobs {

    static final TaskDescriptor<Void> CONDITIONAL_MEMORY = TaskDescriptor.of("conditional-memory");
    static final TaskDescriptor<Void> SESSION_SUMMARY = TaskDescriptor.of("session-summary");
    static final TaskDescriptor<Void> MEMO_WRITING = TaskDescriptor.of("memo-writing");
    static final TaskDescriptor<Void> RECURSIVE_SUMMARY = TaskDescriptor.of("recursive-summary");

    private final SchedulerClient client;
    private final MemoProgressRepository memoProgress;
    private final SummaryFoldRepository summaryFolds;
    private final MemoProperties memoProperties;

    MemoryJobs(DataSource dataSource, MemoProgressRepository memoProgress, SummaryFoldRepository summaryFolds,
            MemoProperties memoProperties) {
        this.client = SchedulerClient.Builder.create(new TransactionAwareDataSourceProxy(dataSource))
                .enablePriority()
                .build();
        this.memoProgress = memoProgress;
        this.summaryFolds = summaryFolds;
        this.memoProperties = memoProperties;
    }

    /** Queues the conditional memory record for a user turn judged worth remembering. */
    public void queueConditionalMemory(UUID userTurnId) {
        client.scheduleIfNotExists(CONDITIONAL_MEMORY.instance(userTurnId.toString()).build(), Instant.now());
    }

    /** Hands a long-running session to memo writing each time enough turns have come since its last memo. */
    @EventListener
    void onTurnsRecorded(TurnsRecorded recorded) {
        if (!recorded.settings().writes(MemoryKind.MEMO)) {
            return;
        }
        int lastSeq = recorded.turns().stream().mapToInt(TurnView::seq).max().orElse(-1);
        MemoProgress progress = memoProgress.findById(recorded.sessionId())
                .orElseGet(() -> memoProgress.save(new MemoProgress(recorded.sessionId())));
        if (lastSeq + 1 - progress.getNextSeq() >= memoProperties.turnsPerMemo()) {
            queueMemoWriting(recorded.sessionId(), progress, lastSeq);
        }
    }

    @EventListener
    void onSessionClosed(SessionClosed closed) {
        if (closed.settings().writes(MemoryKind.SUMMARY)) {
            client.scheduleIfNotExists(SESSION_SUMMARY.instance(closed.sessionId().toString()).build(),
                    Instant.now());
        }
        if (closed.settings().writes(MemoryKind.MEMO)) {
            MemoProgress progress = memoProgress.findById(closed.sessionId())
                    .orElseGet(() -> memoProgress.save(new MemoProgress(closed.sessionId())));
            if (closed.lastSeq() >= progress.getNextSeq()) {
                queueMemoWriting(closed.sessionId(), progress, closed.lastSeq());
            }
        }
        if (closed.settings().writes(MemoryKind.RECURSIVE_SUMMARY)) {
            summaryFolds.save(new SummaryFold(closed.sessionId(), closed.tenant().value(), closed.userId()));
            client.scheduleIfNotExists(RECURSIVE_SUMMARY.instance(closed.sessionId().toString()).build(),
                    Instant.now());
        }
    }

    /** Each memo job owns a fixed span of turns, so jobs of one session never overlap or race. */
    private void queueMemoWriting(UUID sessionId, MemoProgress progress, int toSeq) {
        MemoSpan span = new MemoSpan(sessionId, progress.getNextSeq(), toSeq);
        client.scheduleIfNotExists(MEMO_WRITING.instance(span.id()).build(), Instant.now());
        progress.coveredUpTo(toSeq);
    }
}
