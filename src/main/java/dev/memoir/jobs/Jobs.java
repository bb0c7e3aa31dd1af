package dev.memoir.jobs;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * Durable background jobs on db-scheduler: a job is a row in PostgreSQL, queued in the caller's transaction, so
 * it exists exactly when the work that caused it was committed; it survives a restart and is retried with
 * exponential back-off. A job's id names what it works on, so queueing the same job twice is a no-op. A job that
 * fails on every retry is kept in the dead-letter list ({@link FailedJobs}) until an operator runs it again.
 */
@Component
public class Jobs {

    private static final Logger log = LoggerFactory.getLogger(Jobs.class);

    private final SchedulerClient client;
    private final JobProperties properties;
    private final FailedJobs failed;
    private final JobRuns runs;

    Jobs(DataSource dataSource, JobProperties properties, FailedJobs failed, JobRuns runs) {
        this.client = SchedulerClient.Builder.create(new TransactionAwareDataSourceProxy(dataSource))
                .enablePriority()
                .build();
        this.properties = properties;
        this.failed = failed;
        this.runs = runs;
    }

    /** The memory jobs queued for a session, oldest first, with where each stands. */
    public List<JobStatus> ofSession(UUID sessionId) {
        return runs.ofSession(sessionId);
    }

    /** Runs a dead-lettered job again (at once); false when no such job waits in the dead-letter list. */
    @Transactional
    public boolean retryFailed(String task, String id) {
        if (failed.remove(task, id).isEmpty()) {
            return false;
        }
        client.scheduleIfNotExists(new TaskInstance<Void>(task, id), Instant.now());
        runs.requeued(task, id);
        return true;
    }

    private <T> FailureHandler<T> retriedThenDeadLettered() {
        FailureHandler<T> retries = retriedWithBackoffThenDeadLettered();
        return (complete, operations) -> {
            Execution execution = complete.getExecution();
            runs.failed(execution.getTaskName(), execution.getId(), complete.getCause().orElse(null));
            retries.onFailure(complete, operations);
        };
    }

    private <T> FailureHandler<T> retriedWithBackoffThenDeadLettered() {
        return FailureHandler.<T>maxRetries(properties.maxRetries())
                .withBackoff(properties.firstRetryDelay(), 2.0)
                .thenRemove(complete -> {
                    Execution execution = complete.getExecution();
                    Throwable cause = complete.getCause().orElse(null);
                    log.error("Job {} failed {} times and waits in the dead-letter list: {}",
                            execution.taskInstance, properties.maxRetries() + 1, FailedJobs.describe(cause));
                    failed.record(execution.getTaskName(), execution.getId(), properties.maxRetries() + 1, cause,
                            complete.getTimeDone());
                });
    }

    /** Queues the job unless one with the same id is already waiting or running. */
    public void queue(TaskDescriptor<Void> job, String id) {
        queue(job, id, null);
    }

    /** Queues a job that writes memory of a session, listed with the session (see {@link #ofSession}). */
    public void queue(TaskDescriptor<Void> job, String id, UUID sessionId) {
        client.scheduleIfNotExists(job.instance(id).build(), Instant.now());
        runs.queued(job.getTaskName(), id, sessionId);
    }

    /**
     * A long job done in slices: each run does a bounded slice of the work and answers whether any remains; if so
     * the job is queued again at once, so that other jobs get their turn in between and a restart resumes it
     * from what is already done. Failures are retried like any job's.
     */
    public CustomTask<Void> slicedTask(TaskDescriptor<Void> job, Predicate<String> sliceLeavingMore) {
        return Tasks.custom(job)
                .onFailure(retriedThenDeadLettered())
                .execute((instance, context) -> {
                    boolean more = sliceLeavingMore.test(instance.getId());
                    return (complete, operations) -> {
                        if (more) {
                            operations.reschedule(complete, Instant.now());
                        } else {
                            operations.remove();
                            runs.finished(instance.getTaskName(), instance.getId());
                        }
                    };
                });
    }

    /** A job type whose work gets the job's id and is retried with back-off when it throws. */
    public OneTimeTask<Void> task(TaskDescriptor<Void> job, Consumer<String> work) {
        return Tasks.oneTime(job)
                .onFailure(retriedThenDeadLettered())
                .execute((instance, context) -> {
                    work.accept(instance.getId());
                    runs.finished(instance.getTaskName(), instance.getId());
                });
    }
}
