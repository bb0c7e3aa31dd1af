package dev.memoir.jobs;

import java.time.Instant;

/**
 * What one run of a job whose work goes on in the background ({@link Jobs#backgroundTask}) comes to: the job is done,
 * or looks again at a time (an attempt in flight, or held back behind another job), or its attempt failed and is
 * retried like any failed job.
 */
public sealed interface JobStep {

    static JobStep done() {
        return Done.INSTANCE;
    }

    static JobStep lookAgainAt(Instant at) {
        return new LookAgain(at);
    }

    static JobStep failed(RuntimeException cause) {
        return new Failed(cause);
    }

    enum Done implements JobStep {
        INSTANCE
    }

    record LookAgain(Instant at) implements JobStep {}

    record Failed(RuntimeException cause) implements JobStep {}
}
