package dev.memoir.memory;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.web.StorableInstants;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.VisibleText;

import tools.jackson.databind.JsonNode;

@Schema(description = "A change of a memory: only the fields given change (JSON merge patch)")
record MemoryUpdate(
        @Schema(description = "New text; the memory is re-embedded and its old text kept as a revision")
        @Pattern(regexp = "(?s).*\\S.*", message = "must not be blank")
        @VisibleText
        @Size(max = FieldConstraints.MEMORY_TEXT)
        String text,

        @Schema(
                description = "The user's memories this one supersedes from now on, replacing the previous set; [] "
                        + "makes the ones it superseded live again. Only the user's own live fact-bearing memories.")
        @Size(max = FieldConstraints.SUPERSEDED_MEMORIES)
        List<UUID> supersedes,
        // A JSON node, not an Instant: null (clear the expiry) and absent (keep it) must be told apart.
        @Schema(
                description = "When the memory expires (ISO-8601, in the future); null clears the expiry",
                implementation = Instant.class,
                example = "2099-01-01T00:00:00Z")
        JsonNode expiresAt) {

    MemoryChange change() {
        boolean clears = expiresAt != null && expiresAt.isNull();
        return new MemoryChange(
                text == null ? null : text.strip(),
                supersedes,
                expiresAt == null || clears ? null : instant(expiresAt),
                clears);
    }

    private static Instant instant(JsonNode value) {
        try {
            if (value.isString()) {
                return StorableInstants.require(
                        "expiresAt", Instant.parse(value.asString().strip()));
            }
        } catch (DateTimeParseException e) {
            // refused below
        }
        throw new InvalidRequestException(
                "expiresAt",
                "must be an ISO-8601 instant, e.g. 2025-01-01T00:00:00Z, " + "or null to clear the expiry");
    }
}
