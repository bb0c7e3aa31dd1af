package dev.memoir.jobs;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Where one background job stands. */
@Schema(description = "A background memory job and where it stands")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobStatus(
        @Schema(description = "What the job writes", example = "session-summary")
        String task,

        @Schema(description = "The job's id: what it works on (a session, a turn, a span of turns)")
        String id,

        @Schema(
                description = "pending (waiting, or waiting for a retry after a failure), deferred (held back "
                        + "while the tenant's or the user's model budget is used up; it runs when the budget renews "
                        + "or is raised), running, failed (every retry failed; an operator can run it again) or done",
                example = "done")
        State state,

        @Schema(description = "Failed attempts so far") int failures,

        @Schema(description = "The last failure, when the job failed at least once")
        String lastError,

        Instant queuedAt,

        @Schema(description = "When a pending job runs next, or a deferred one looks again whether it may")
        Instant nextAttemptAt,

        Instant finishedAt) {

    public enum State {
        pending,
        deferred,
        running,
        failed,
        done
    }
}
