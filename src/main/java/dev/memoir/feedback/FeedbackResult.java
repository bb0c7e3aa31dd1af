package dev.memoir.feedback;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "What the feedback led to")
@JsonInclude(JsonInclude.Include.NON_NULL)
record FeedbackResult(
        UUID feedbackId,
        UUID episodeId,

        @Schema(
                description = "resolved: the episode ended with a right answer; retried: the assistant reasoned "
                        + "again and has a new answer; needs_feedback: the new answer repeats an earlier one, so the "
                        + "assistant asks for a hint; exhausted: the trials ran out",
                example = "retried")
        String outcome,

        @Schema(example = "open") EpisodeStatus status,

        @Schema(description = "The assistant's new answer, after a retry")
        String answer,

        @Schema(description = "True when the assistant is stuck and needs more help")
        boolean needsFeedback,

        @Schema(description = "The episode's reasoning trace")
        List<Trial> trace,

        @Schema(description = "What was learned, once the episode ended")
        Learned learned) {}
