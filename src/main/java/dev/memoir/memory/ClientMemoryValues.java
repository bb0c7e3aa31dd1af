package dev.memoir.memory;

import java.time.Instant;

import org.springframework.stereotype.Component;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.ClockSkew;
import dev.memoir.memory.api.MemoryKind;

/**
 * What a client's memory must be to be added or changed, beyond what its request's type checks: the kinds only
 * Memoir writes are refused, and its dates must make sense now (a 400 naming the field otherwise).
 */
@Component
class ClientMemoryValues {

    // The skew allowed for turns' occurredAt (memoir.session.clock-skew) bounds added memories' dates the same way.
    private final ClockSkew clockSkew;

    ClientMemoryValues(ClockSkew clockSkew) {
        this.clockSkew = clockSkew;
    }

    void requireAddable(MemoryKind kind, Instant occurredAt, Instant expiresAt) {
        requireFuture(expiresAt);
        if (kind != null && !kind.addable()) {
            throw new InvalidRequestException(
                    "kind",
                    "cannot be " + kind + ": only fact memories can be added; "
                            + "the other kinds are written by Memoir from dialogue and feedback");
        }
        if (occurredAt != null && occurredAt.isAfter(clockSkew.latestAllowed())) {
            throw new InvalidRequestException("occurredAt", "is in the future: " + occurredAt);
        }
    }

    static void requireFuture(Instant expiresAt) {
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            throw new InvalidRequestException("expiresAt", "is not in the future: " + expiresAt);
        }
    }
}
