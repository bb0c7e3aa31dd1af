package dev.memoir.memory.api;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What storing a new memory does to the user's live memories: the ones it updates or contradicts, superseded once
 * it is stored, and the memory that already says what it says, if any (then it is not stored at all).
 */
public record Supersession(List<UUID> superseded, Optional<UUID> repeated, List<UUID> repeatedFacts) {

    public static final Supersession NONE = new Supersession(List.of(), Optional.empty(), List.of());

    /**
     * Whether the new memory adds nothing: an existing live memory already says it, and it supersedes nothing (a
     * memory that makes others stale is stored even if it also repeats one).
     */
    public boolean repeats() {
        return repeated.isPresent() && superseded.isEmpty();
    }
}
