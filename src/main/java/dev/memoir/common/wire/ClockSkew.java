package dev.memoir.common.wire;

import java.time.Duration;
import java.time.Instant;

/**
 * How far in the future a time a client gives (a turn's or a fact's {@code occurredAt}) may lie: clients' clocks
 * differ a little from the server's. The session feature binds it ({@code memoir.session.clock-skew}); the features
 * that check a client's time take it from here, so that its default lives in one place.
 */
public record ClockSkew(Duration allowed) {

    /** The latest time a client may give now. */
    public Instant latestAllowed() {
        return Instant.now().plus(allowed);
    }
}
