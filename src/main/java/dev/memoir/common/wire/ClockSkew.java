package dev.memoir.common.wire;

import java.time.Duration;
import java.time.Instant;

import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.validation.annotation.Validated;

/**
 * How far in the future a time a client gives (a turn's or a fact's {@code occurredAt}) may lie: clients' clocks
 * differ a little from the server's. Bound here ({@code memoir.session.clock-skew}), where every feature that checks a
 * client's time takes it from, so that its default lives in one place and no feature makes it for the others.
 *
 * @param allowed how far in the future a client's time may lie (default 5 minutes)
 */
@Validated
@ConfigurationProperties("memoir.session")
public record ClockSkew(
        @DefaultValue("5m") @NotNull @DurationMin(seconds = 0) @Name("clock-skew")
        Duration allowed) {

    /** The latest time a client may give now. */
    public Instant latestAllowed() {
        return Instant.now().plus(allowed);
    }
}
