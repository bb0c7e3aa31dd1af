package dev.memoir.memory;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.memoir.common.web.InvalidRequestException;

/**
 * A client's change of one memory; a null part leaves that part as it is.
 *
 * @param text         the new text (a new version)
 * @param supersedes   the memories it supersedes from now on, replacing the previous set; empty for none
 * @param expiresAt    when it expires from now on
 * @param neverExpires whether to clear its expiry (when {@code expiresAt} is null)
 */
public record MemoryChange(String text, List<UUID> supersedes, Instant expiresAt, boolean neverExpires) {

    /** A change must change something: 400 naming text otherwise, wherever a client asks for it (REST or MCP). */
    public MemoryChange {
        if (text == null && supersedes == null && expiresAt == null && !neverExpires) {
            throw new InvalidRequestException("text", "nothing to change: give text, supersedes or expiresAt");
        }
    }
}
