package dev.memoir.session.config;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The session feature's settings ({@code memoir.session.*}); {@code memoir.session.clock-skew} is bound by
 * {@code common.wire.ClockSkew}, which every feature that checks a client's time reads.
 *
 * @param idleCloseAfter an open session without a new turn for this long is closed, so that the memory written at
 *                       a close (summary, memos, topics, recursive summary) is written for clients that never close
 *                       sessions, such as OpenAI-compatible chat clients; 0 never closes idle sessions
 * @param idleCheckEvery how often the durable idle-session job looks for such sessions
 */
@Validated
@ConfigurationProperties("memoir.session")
public record SessionProperties(
        @DefaultValue("30m") @NotNull @DurationMin(seconds = 0)
        Duration idleCloseAfter,

        @DefaultValue("1m") @NotNull @DurationMin(millis = 1)
        Duration idleCheckEvery) {}
