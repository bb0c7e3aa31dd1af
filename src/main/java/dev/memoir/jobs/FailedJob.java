package dev.memoir.jobs;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

/** A background job that failed on every retry and waits for an operator. */
@Schema(description = "A background job that failed on every retry; POST .../retry runs it again")
public record FailedJob(
        @Schema(description = "The job type, e.g. conditional-memory, session-summary, memo-writing")
        String task,

        @Schema(description = "What the job works on: a turn, session or span id")
        String instance,

        @Schema(description = "How many times it ran and failed")
        int failures,

        @Schema(description = "The last failure: its type and first line, never the user's words")
        String lastError,

        Instant failedAt) {}
