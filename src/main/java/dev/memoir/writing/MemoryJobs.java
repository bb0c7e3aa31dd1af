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

/**
 * Queues memory writing that need not block a reply. Jobs are rows in PostgreSQL (db-scheduler), queued in the
 * caller's transaction: they exist exactly when the turn or close that caused them was committed, survive a
 * restart, and are retried with back-off. A job's id is the id of what it works on, so queueing twice is a no-op.
 */
@Component
public class MemoryJobs {

    static final TaskDescriptor<Void> CONDITIONAL_MEMORY = TaskDescriptor.of("conditional-memory");
    static final TaskDescriptor<Void> SESSION_SUMMARY = TaskDescriptor.of("session-summary");

    private final SchedulerClient client;

    MemoryJobs(DataSource dataSource) {
        this.client = SchedulerClient.Builder.create(new TransactionAwareDataSourceProxy(dataSource))
                .enablePriority()
                .build();
    }

    /** Queues the conditional memory record for a user turn judged worth remembering. */
    public void queueConditionalMemory(UUID userTurnId) {
        client.scheduleIfNotExists(CONDITIONAL_MEMORY.instance(userTurnId.toString()).build(), Instant.now());
    }

    @EventListener
    void onSessionClosed(SessionClosed closed) {
        if (closed.settings().writes(MemoryKind.SUMMARY)) {
            client.scheduleIfNotExists(SESSION_SUMMARY.instance(closed.sessionId().toString()).build(),
                    Instant.now());
        }
    }
}
