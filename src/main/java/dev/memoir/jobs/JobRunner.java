package dev.memoir.jobs;

import java.util.List;
import javax.sql.DataSource;

import io.micrometer.observation.Observation;

import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.event.ExecutionChain;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.OnStartup;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstance;

import dev.memoir.common.web.Observed;

/**
 * Runs the queued jobs of every job type the features declare (their {@link Task} beans). Starts once the
 * application is up (after Flyway) and stops with it, letting running jobs finish; a job cut off by a crash is
 * picked up again by db-scheduler's dead-execution handling.
 *
 * <p>Every run of a job is one {@code memoir.job} observation, the root of a trace of its own (a job runs long
 * after the request that queued it), tagged with the job type and the run's outcome: its search, embedding and
 * model spans hang below it. Never the job's id, which may name a user.
 */
@Component
class JobRunner implements SmartLifecycle {

    private final DataSource dataSource;
    private final JobProperties properties;
    private final List<Task<?>> tasks;
    private final Observed observations;
    private Scheduler scheduler;

    JobRunner(DataSource dataSource, JobProperties properties, List<Task<?>> tasks, Observed observations) {
        this.dataSource = new TransactionAwareDataSourceProxy(dataSource);
        this.observations = observations;
        this.properties = properties;
        this.tasks = List.copyOf(tasks);
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized void start() {
        if (scheduler == null) {
            // A stopped db-scheduler cannot be started again, so every start builds a fresh one.
            scheduler = Scheduler.create(dataSource, others(tasks))
                    // A recurring task registered only as known would run its row, but nothing writes the row: it is
                    // written when the task is started here (and kept, so several instances share one). Its schedule
                    // may have changed since another instance or version wrote the row: db-scheduler moves the row
                    // to the new schedule when that runs sooner, and otherwise leaves it (the task runs once more at
                    // the old time, then follows the schedule of whichever instance ran it).
                    .startTasks(startedOnStartup(tasks))
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
                    // db-scheduler's own default waits half an hour for a running job; a job cut off runs again.
                    .shutdownMaxWait(properties.shutdownWait())
                    // Jobs log their own failures, one line each (the stack trace at DEBUG).
                    .failureLogging(LogLevel.DEBUG, true)
                    .addExecutionInterceptor(this::observed)
                    .build();
            scheduler.start();
        }
    }

    /**
     * The tasks that schedule themselves when the scheduler starts (the recurring ones), whichever feature declares
     * them: a recurring job added later needs nothing more than its {@link Task} bean. (startTasks also registers
     * them as known, so they must not be among {@link #others}.)
     */
    @SuppressWarnings("rawtypes")
    private static List startedOnStartup(List<Task<?>> tasks) {
        // Raw: startTasks wants a list typed Task & OnStartup, which a filtered List<Task<?>> cannot be.
        return tasks.stream().filter(OnStartup.class::isInstance).toList();
    }

    private static List<Task<?>> others(List<Task<?>> tasks) {
        return tasks.stream().filter(task -> !(task instanceof OnStartup)).toList();
    }

    /** One run of a job as an observation; a run that throws is a failure (db-scheduler then retries it). */
    private CompletionHandler<?> observed(TaskInstance<?> job, ExecutionContext context, ExecutionChain chain) {
        Observation observation = observations
                .observation(Observed.Name.JOB)
                .lowCardinalityKeyValue("memoir.job.task", job.getTaskName())
                .start();
        try (Observation.Scope scope = observation.openScope()) {
            CompletionHandler<?> completion = chain.proceed(job, context);
            observation.lowCardinalityKeyValue("memoir.job.outcome", "success");
            return completion;
        } catch (RuntimeException | Error e) {
            observation.lowCardinalityKeyValue("memoir.job.outcome", "failure");
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
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
