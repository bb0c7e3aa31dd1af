package dev.memoir.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.FailureHandler;

import dev.memoir.common.web.ApiException;

/**
 * Retries a failed job after a delay that doubles with each failure, from a random point of the upper half of
 * it (so that jobs that failed together, say all of one session's close, do not all come back at once), or
 * later if the failure asks for it (a model server's Retry-After); after memoir.jobs.max-retries it goes to the
 * dead-letter list. One log line per failure; the stack trace at DEBUG.
 */
final class RetriedThenDeadLettered {

    /** Under the name of {@link Jobs}, where operators have always found these lines. */
    private static final Logger log = LoggerFactory.getLogger(Jobs.class);

    private final JobProperties properties;
    private final JobRuns runs;
    private final FailedJobs failed;

    RetriedThenDeadLettered(JobProperties properties, JobRuns runs, FailedJobs failed) {
        this.properties = properties;
        this.runs = runs;
        this.failed = failed;
    }

    <T> FailureHandler<T> handler() {
        return (complete, operations) -> {
            Execution execution = complete.getExecution();
            afterFailure(
                    execution,
                    execution.consecutiveFailures + 1,
                    complete.getCause().orElse(null),
                    complete.getTimeDone(),
                    operations::remove,
                    at -> operations.reschedule(complete, at));
        };
    }

    /**
     * What follows the {@code failures}-th failure in a row of a job: a retry, rescheduled after the back-off, or,
     * past memoir.jobs.max-retries, the dead-letter list (the job removed).
     */
    void afterFailure(
            Execution execution,
            int failures,
            Throwable cause,
            Instant failedAt,
            Runnable remove,
            Consumer<Instant> reschedule) {
        runs.failed(execution.getTaskName(), execution.getId(), cause);
        log.debug("Job {} failed", execution.taskInstance, cause);
        if (failures > properties.maxRetries()) {
            remove.run();
            log.error(
                    "Job {} failed {} times and waits in the dead-letter list: {}",
                    execution.taskInstance,
                    failures,
                    FailedJobs.describe(cause));
            failed.record(execution.getTaskName(), execution.getId(), failures, cause, failedAt);
            return;
        }
        Duration delay = retryDelay(failures, cause);
        log.warn(
                "Job {} failed (attempt {} of {}), retrying in {} s: {}",
                execution.taskInstance,
                failures,
                properties.maxRetries() + 1,
                delay.toSeconds(),
                FailedJobs.describe(cause));
        reschedule.accept(failedAt.plus(delay));
    }

    private Duration retryDelay(int failures, Throwable cause) {
        return retryDelay(properties.firstRetryDelay(), failures, cause, ThreadLocalRandom.current());
    }

    /**
     * The wait before retrying a job that failed {@code failures} times: up to {@code first} doubled for each
     * failure after the first, at least half of that (equal jitter), and at least what the failure asked for.
     */
    static Duration retryDelay(Duration first, int failures, Throwable cause, RandomGenerator random) {
        long limit = first.toMillis() << Math.min(failures - 1, 20);
        Duration delay = Duration.ofMillis(limit / 2 + random.nextLong(limit / 2 + 1));
        Duration asked = cause instanceof ApiException api ? api.retryAfter().orElse(Duration.ZERO) : Duration.ZERO;
        return asked.compareTo(delay) > 0 ? asked : delay;
    }
}
