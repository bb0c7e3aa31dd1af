package dev.memoir.writing;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * Runs the queued memory jobs. Starts once the application is up (after Flyway) and stops with it, letting
 * running jobs finish; a job cut off by a crash is picked up again by db-scheduler's dead-execution handling.
 */
@Component
class MemoryJobRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(MemoryJobRunner.class);

    private final DataSource dataSource;
    private final JobProperties properties;
    private final List<OneTimeTask<Void>> tasks;
    private Scheduler scheduler;

    MemoryJobRunner(DataSource dataSource, JobProperties properties, ConditionalMemoryWriter conditionalWriter,
            SessionSummaryWriter summaryWriter, MemoWriter memoWriter, RecursiveSummaryWriter recursiveWriter) {
        this.dataSource = new TransactionAwareDataSourceProxy(dataSource);
        this.properties = properties;
        this.tasks = List.of(
                task(MemoryJobs.CONDITIONAL_MEMORY, properties, id -> conditionalWriter.write(UUID.fromString(id))),
                task(MemoryJobs.SESSION_SUMMARY, properties, id -> summaryWriter.write(UUID.fromString(id))),
                task(MemoryJobs.MEMO_WRITING, properties, id -> memoWriter.write(MemoSpan.parse(id))),
                task(MemoryJobs.RECURSIVE_SUMMARY, properties, id -> recursiveWriter.foldPending(UUID.fromString(id))));
    }

    private static OneTimeTask<Void> task(TaskDescriptor<Void> descriptor, JobProperties properties,
            Consumer<String> work) {
        return Tasks.oneTime(descriptor)
                .onFailure(FailureHandler.<Void>maxRetries(properties.maxRetries())
                        .withBackoff(properties.firstRetryDelay(), 2.0)
                        .thenRemove(failed -> log.error("Memory job {} failed {} times and was dropped",
                                failed.getExecution().taskInstance, properties.maxRetries() + 1)))
                .execute((instance, context) -> work.accept(instance.getId()));
    }

    @Override
    public synchronized void start() {
        if (scheduler == null) {
            // A stopped db-scheduler cannot be started again, so every start builds a fresh one.
            scheduler = Scheduler.create(dataSource, List.copyOf(tasks))
                    .pollingInterval(properties.pollingInterval())
                    .threads(properties.threads())
                    .enableImmediateExecution()
                    .enablePriority()
                    .build();
            scheduler.start();
        }
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.stop();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
