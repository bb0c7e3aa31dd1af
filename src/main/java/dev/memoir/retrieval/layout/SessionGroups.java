package dev.memoir.retrieval.layout;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import dev.memoir.memory.ScoredMemory;

/**
 * The groups of the [Memory] section: one per session, under a line with its date, and one for the memories of no
 * session (facts, corrections), each dated on its own line.
 */
final class SessionGroups {

    /** The group of the memories of no session; compared by identity, as a session's group is its id. */
    static final String NO_SESSION = "Told directly";

    private SessionGroups() {}

    /** The memory's group: its session's id, or {@link #NO_SESSION}. */
    static Object of(ScoredMemory memory) {
        UUID session = memory.provenance() == null ? null : memory.provenance().sessionId();
        return session == null ? NO_SESSION : session;
    }

    /** "Session of 2023-05-08:", or "... to 2023-05-10:" when its memories span days (UTC). */
    static String header(Object group, List<Instant> dated) {
        if (group == NO_SESSION) {
            return NO_SESSION + ":";
        }
        List<LocalDate> days = dated.stream()
                .filter(Objects::nonNull)
                .map(at -> LocalDate.ofInstant(at, ZoneOffset.UTC))
                .sorted()
                .toList();
        if (days.isEmpty()) {
            return "Session, date unknown:";
        }
        LocalDate from = days.getFirst();
        LocalDate to = days.getLast();
        return "Session of " + from + (to.equals(from) ? "" : " to " + to) + ":";
    }
}
