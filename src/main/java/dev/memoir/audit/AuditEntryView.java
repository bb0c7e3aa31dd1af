package dev.memoir.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import tools.jackson.databind.JsonNode;

@Schema(description = "One entry of the audit trail: who did what to which ids, when; never memory text")
record AuditEntryView(
        UUID id,

        @Schema(description = "Its place in the chain; null until sealed (seconds after it was written)")
        Long seq,

        Instant recordedAt,

        @Schema(
                description = "Who: key:<API key id>, operator, job:<job type>, or memoir (the service itself)",
                example = "key:3f2a0c1e-8d4b-4f7a-9b1e-2c5d6e7f8a90")
        String actor,

        @Schema(
                description = "What was done: memory.created, memory.updated, memory.superseded, memory.deleted, "
                        + "turns.recorded, reply.shown, context.shown, user.exported, import.finished, user.erased, "
                        + "session.erased, key.created, key.revoked, retention.set, retention.removed, "
                        + "memory.quarantined, memory.released, redaction.policy-set, redaction.policy-reset, "
                        + "quarantine.policy-set",
                example = "memory.created")
        String action,

        @Schema(description = "The user, as a keyed hash of the user id (find a user's entries with ?userId=)")
        String userHash,

        @Schema(description = "The ids of what was touched or shown: memories, turns, sessions")
        List<UUID> subjects,

        @Schema(description = "Counts, kinds, reasons and other ids")
        JsonNode details,

        @Schema(description = "SHA-256 of the entry's fields (hex)")
        String contentHash,

        @Schema(description = "The previous entry's hash (hex); null for the first or before sealing")
        String prevHash,

        @Schema(description = "sha256(prevHash || seq || contentHash) (hex); null before sealing")
        String hash) {}
