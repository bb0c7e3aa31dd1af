package dev.memoir.reflection;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One attempt at answering within an episode: the reasoning steps, the inference they led to, and the feedback
 * the user gave on it.
 */
@Schema(description = "One trial of an episode")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Trial(
        @Schema(description = "From 1") int number,
        @Schema(description = "Thought, Action and Observation steps; empty for a plain chat reply") List<Step> steps,
        @Schema(description = "The answer the trial reached") String inference,
        @Schema(description = "Memories the trial drew on") List<UUID> memoryIds,
        @Schema(description = "The user's feedback on this trial's answer, once given") FeedbackNote feedback) {

    @Schema(description = "One reasoning step: a thought, an action (search or finish) and what it observed")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(String thought, String action, String argument, String observation) {
    }

    @Schema(description = "Feedback on a trial's answer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FeedbackNote(String verdict, String hint, String answer) {
    }

    Trial withFeedback(FeedbackNote note) {
        return new Trial(number, steps, inference, memoryIds, note);
    }
}
