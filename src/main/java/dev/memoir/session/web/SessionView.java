package dev.memoir.session.web;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.jobs.JobStatus;
import dev.memoir.memory.MemorySettings;
import dev.memoir.session.api.TurnView;
import dev.memoir.session.store.SessionStatus;

@Schema(description = "A dialogue session")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionView(
        UUID id,
        String userId,

        @Schema(
                description = "The title of an imported conversation, as its assistant's export gave it; absent "
                        + "for a session started through the API")
        String title,

        @Schema(example = "open") SessionStatus status,
        MemorySettings memory,
        Instant createdAt,
        Instant updatedAt,

        @Schema(description = "Set once the session is closed")
        Instant closedAt,

        @Schema(
                description = "When its dialogue began: its first turn's occurredAt (for imported dialogue, when it "
                        + "was said, not when it was stored); absent while it has no turn")
        Instant dialogueFrom,

        @Schema(description = "When its dialogue last went on: its last turn's occurredAt")
        Instant dialogueTo,

        @Schema(description = "The turns in order; present when one session is read, absent in lists")
        List<TurnView> turns,

        @Schema(
                description =
                        "The background jobs writing this session's memory (summary, memos, topics, "
                                + "recursive summary, conditional notes) and where each stands; present when one session is read")
        List<JobStatus> jobs) {}
