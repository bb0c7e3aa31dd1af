package dev.memoir.memory;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.common.wire.VisibleText;
import dev.memoir.memory.api.MemoryKind;

@Schema(description = "A memory to add directly, such as a fact the user or the application states")
record MemoryCreate(
        @Schema(description = "The user the memory belongs to", example = "alice") @UserIdentifier
        String userId,

        @Schema(description = "What to remember", example = "Alice is allergic to peanuts.")
        @NotBlank
        @VisibleText
        @Size(max = FieldConstraints.MEMORY_TEXT)
        String text,

        @Schema(
                description = "When what it states was said or became true (ISO-8601); now when omitted. Not in "
                        + "the future beyond memoir.session.clock-skew.",
                example = "2024-03-01T09:00:00Z")
        Instant occurredAt,

        @Schema(
                description = "The memory's kind: fact (the default), or instruction, a standing instruction or "
                        + "preference of the user that every reply shows first (\"Always answer in French\"). The other "
                        + "kinds are written by Memoir from dialogue and feedback.",
                example = "fact",
                allowableValues = {"fact", "instruction"})
        MemoryKind kind,

        @Schema(
                description = "The user's memories this one supersedes: each stays, with validTo (when this one "
                        + "was said) and supersededBy, but search, listings and replies read live memories only. Only the "
                        + "user's own live fact-bearing memories (conditional, topic, reflected, fact, instruction). Given (even "
                        + "empty), "
                        + "Memoir does not judge on its own which memories the new fact supersedes.")
        @Size(max = FieldConstraints.SUPERSEDED_MEMORIES)
        List<UUID> supersedes,

        @Schema(
                description = "When the memory expires (ISO-8601, in the future): from then on it is invisible, "
                        + "and the retention job deletes it with its revisions and vectors.",
                example = "2099-01-01T00:00:00Z")
        Instant expiresAt) {}
