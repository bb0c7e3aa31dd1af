package dev.memoir.jobs;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.Task;

/**
 * Runs the queued jobs of every job type the features declare (their {@link Task} beans). Starts once the
 * application is up (after Flyway) and stops with it, letting running jobs finish; a job cut off by a crash is
 * picked up again by db-scheduler's dead-execution handling.
 */
@Component
class JobRunner implements SmartLifecycle {

    private final DataSource dataSource;
    private final JobProperties properties;
    private final List<Task<?>> tasks;
    private Scheduler scheduler;

    JobRunner(DataSource dataSource, JobProperties properties, List<Task<?>> tasks) {
        this.dataSource = new TransactionAwareDataSourceProxy(dataSource);
        this.properties = properties;
        this.tasks = List.copyOf(tasks);
    }

    @Override
    public synchronized void start() {
        if (scheduler == null) {
            // A stopped db-scheduler cannot be started again, so every start builds a fresh one.
            scheduler = Scheduler.create(dataSource, tasks)
                    .pollingInterval(properties.pollingInterval())
                    .threads(properties.threads())
                    .enableImmediateExecution()
                    .enablePriority()
                    // Lock only as many due jobs as there are threads, in priority order, each time a thread frees:
                    // a job queued meanwhile with a higher priority (a quiet tenant's) is not stuck behind a batch
                    // already taken.
                    .pollUsingLockAndFetch(0.5, 1.0)
                    .heartbeatInterval(properties.heartbeatInterval())
                    .missedHeartbeatsLimit(properties.missedHeartbeatsLimit())
                    // Jobs log their own failures, one line each (the stack trace at DEBUG).
                    .failureLogging(LogLevel.DEBUG, true)
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
