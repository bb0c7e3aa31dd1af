package dev.memoir.context;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How long the traces of context requests are kept ({@code memoir.context-traces.*}).
 *
 * @param keep       how long after its request a trace can still be read and cited; then it is purged
 * @param purgeEvery how often the {@code context-trace-purge} job deletes the older ones
 */
@Validated
@ConfigurationProperties("memoir.context-traces")
record ContextTraceProperties(
        @DefaultValue("7d") @NotNull @DurationMin(minutes = 1)
        Duration keep,

        @DefaultValue("1h") @NotNull @DurationMin(seconds = 1)
        Duration purgeEvery) {}
