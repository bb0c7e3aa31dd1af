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

    private final Scheduler scheduler;
    private volatile boolean running;

    MemoryJobRunner(DataSource dataSource, JobProperties properties, ConditionalMemoryWriter conditionalWriter,
            SessionSummaryWriter summaryWriter) {
        List<OneTimeTask<Void>> tasks = List.of(
                task(MemoryJobs.CONDITIONAL_MEMORY, properties, conditionalWriter::write),
                task(MemoryJobs.SESSION_SUMMARY, properties, summaryWriter::write));
        this.scheduler = Scheduler.create(new TransactionAwareDataSourceProxy(dataSource), List.copyOf(tasks))
                .pollingInterval(properties.pollingInterval())
                .threads(properties.threads())
                .enableImmediateExecution()
                .enablePriority()
                .build();
    }

    private static OneTimeTask<Void> task(TaskDescriptor<Void> descriptor, JobProperties properties,
            Consumer<UUID> work) {
        return Tasks.oneTime(descriptor)
                .onFailure(FailureHandler.<Void>maxRetries(properties.maxRetries())
                        .withBackoff(properties.firstRetryDelay(), 2.0)
                        .thenRemove(failed -> log.error("Memory job {} failed {} times and was dropped",
                                failed.getExecution().taskInstance, properties.maxRetries() + 1)))
                .execute((instance, context) -> work.accept(UUID.fromString(instance.getId())));
    }

    @Override
    public void start() {
        scheduler.start();
        running = true;
    }

    @Override
    public void stop() {
        scheduler.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
