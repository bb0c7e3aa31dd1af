package dev.memoir.jobs;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Background jobs ({@code memoir.jobs.*}).
 *
 * @param pollingInterval how often due jobs are looked for in the database
 * @param threads         jobs run at once on this instance
 * @param maxRetries      retries of a failing job before it is dropped (and logged as an error)
 * @param firstRetryDelay delay before the first retry; each later retry waits twice as long
 * @param heartbeatInterval     how often a running job's instance says it is alive
 * @param missedHeartbeatsLimit missed heartbeats after which a job is taken as dead (its instance crashed) and
 *                              run again: interval × limit is how long a crashed instance's jobs wait
 * @param shutdownWait    how long stopping the service waits for running jobs to finish; a job still running then
 *                        is cut off and runs again (on this instance after a restart, or on another one once its
 *                        heartbeats are missed)
 */
@Validated
@ConfigurationProperties("memoir.jobs")
public record JobProperties(
        @DefaultValue("5s") @NotNull @DurationMin(millis = 1)
        Duration pollingInterval,

        @DefaultValue("2") @Min(1) int threads,
        @DefaultValue("8") @Min(0) int maxRetries,

        @DefaultValue("10s") @NotNull @DurationMin(millis = 1)
        Duration firstRetryDelay,

        @DefaultValue("15s") @NotNull @DurationMin(millis = 1)
        Duration heartbeatInterval,

        @DefaultValue("4") @Min(1) int missedHeartbeatsLimit,

        @DefaultValue("20s") @NotNull @DurationMin(millis = 1)
        Duration shutdownWait) {}
