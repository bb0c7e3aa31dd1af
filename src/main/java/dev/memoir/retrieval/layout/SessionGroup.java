package dev.memoir.retrieval.layout;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import dev.memoir.memory.api.ScoredMemory;

/**
 * A group of the [Memory] section: one per session, under a line with its date, and one for the memories of no
 * session (facts, corrections: {@code sessionId} null), each dated on its own line.
 */
record SessionGroup(UUID sessionId) {

    private static final SessionGroup TOLD_DIRECTLY = new SessionGroup(null);

    /** The memory's group: its session's, or the group of what was told directly. */
    static SessionGroup of(ScoredMemory memory) {
        UUID session = memory.provenance() == null ? null : memory.provenance().sessionId();
        return session == null ? TOLD_DIRECTLY : new SessionGroup(session);
    }

    /** The group of memories of no session. */
    boolean toldDirectly() {
        return sessionId == null;
    }

    /** "Session of 2023-05-08:", or "... to 2023-05-10:" when its memories span days (UTC); "Told directly:". */
    String header(List<Instant> dated) {
        if (toldDirectly()) {
            return "Told directly:";
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
