package dev.memoir.common.web;

import java.time.Instant;

/**
 * The instants PostgreSQL's timestamptz holds: 4714 BC (ISO year -4713) to 294276 AD, to the microsecond. Java's
 * {@link Instant} reaches a billion years either way, so an instant a client sends is checked here before it reaches
 * a statement, where it would fail as a 500. {@link ClientValueChecks} applies the check to every instant of a JSON
 * body (requests, archives, MCP arguments) and of a query parameter; code that parses an instant by hand calls
 * {@link #require}.
 */
public final class StorableInstants {

    public static final Instant EARLIEST = Instant.parse("-4713-11-24T00:00:00Z");
    public static final Instant LATEST = Instant.parse("+294276-12-31T23:59:59.999999Z");

    private StorableInstants() {}

    public static boolean storable(Instant instant) {
        return instant == null || !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
    }

    /** Why the instant cannot be stored; null when it can. */
    public static String problem(Instant instant) {
        return storable(instant)
                ? null
                : "is " + instant + ", outside the instants Memoir stores (" + EARLIEST + " to " + LATEST + ")";
    }

    /** The instant, or a 400 naming the field when it cannot be stored. */
    public static Instant require(String field, Instant instant) {
        String problem = problem(instant);
        if (problem != null) {
            throw new InvalidRequestException(field, problem);
        }
        return instant;
    }

    /** An instant beyond the stored range, where a parser reads a client's value. */
    public static final class UnstorableInstantException extends IllegalArgumentException {

        public UnstorableInstantException(Instant instant) {
            super(problem(instant));
        }
    }
}
