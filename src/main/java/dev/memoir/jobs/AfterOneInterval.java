package dev.memoir.jobs;

import java.time.Duration;
import java.time.Instant;

import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;

/**
 * A recurring job's schedule: every {@code interval} after its last run ended, as db-scheduler's {@link FixedDelay},
 * but first one interval after the job is first scheduled, where {@code FixedDelay} runs it at once. Every
 * housekeeping job of a new deployment would otherwise run in the service's first second, all at once and while its
 * code is still being compiled, beside the first requests (issue 46: the search floor of a just-started service). A
 * restart changes nothing: the job's row keeps its next run.
 */
record AfterOneInterval(Duration interval) implements Schedule {

    @Override
    public Instant getInitialExecutionTime(Instant now) {
        return now.plus(interval);
    }

    @Override
    public Instant getNextExecutionTime(ExecutionComplete executionComplete) {
        return executionComplete.getTimeDone().plus(interval);
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }
}
