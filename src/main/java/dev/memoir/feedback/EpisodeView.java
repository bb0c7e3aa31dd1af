package dev.memoir.feedback;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "A learning episode with its whole reasoning trace")
@JsonInclude(JsonInclude.Include.NON_NULL)
record EpisodeView(
        UUID id,
        UUID sessionId,

        @Schema(description = "The user turn that asked the question")
        UUID questionTurnId,

        @Schema(description = "The assistant turn that answered first")
        UUID replyTurnId,

        String question,
        @Schema(example = "open") EpisodeStatus status,
        List<Trial> trials,

        @Schema(
                description =
                        "The reflected memory written when the episode ended; absent when nothing was " + "learned")
        String learned,

        @Schema(description = "The memory that now holds it")
        UUID learnedMemoryId,

        Instant createdAt,
        Instant updatedAt) {}
