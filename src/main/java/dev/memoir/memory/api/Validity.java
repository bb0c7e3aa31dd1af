package dev.memoir.memory.api;

import java.time.Instant;

import dev.memoir.common.web.InvalidRequestException;

/**
 * Which memories a read sees. By default only live ones: neither superseded by a newer memory nor expired.
 * {@code asOf} answers as the memory stood at that instant: memories said by then and not yet superseded then.
 * {@code includeSuperseded} shows every memory with its validity interval. Expired memories are never seen: they
 * wait only for the retention job to delete them.
 */
public record Validity(Instant asOf, boolean includeSuperseded) {

    public static final Validity LIVE = new Validity(null, false);

    public static final Validity ALL = new Validity(null, true);

    public static Validity asOf(Instant instant) {
        return new Validity(instant, false);
    }

    /** What a client asked for, refused (400 naming asOf) when the two contradict or asOf is yet to come. */
    public static Validity of(Instant asOf, boolean includeSuperseded) {
        if (asOf == null) {
            return includeSuperseded ? ALL : LIVE;
        }
        if (includeSuperseded) {
            throw new InvalidRequestException(
                    "asOf",
                    "cannot be combined with includeSuperseded: asOf shows what "
                            + "was live at that instant, includeSuperseded everything");
        }
        if (asOf.isAfter(Instant.now())) {
            throw new InvalidRequestException("asOf", "is in the future: " + asOf);
        }
        return asOf(asOf);
    }
}
