package dev.memoir.feedback;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.retrieval.RecursiveReasoner;

/**
 * One attempt at answering within an episode: the reasoning steps, the inference they led to, and the feedback
 * the user gave on it.
 */
@Schema(description = "One trial of an episode")
@JsonInclude(JsonInclude.Include.NON_NULL)
record Trial(
        @Schema(description = "From 1") int number,

        @Schema(description = "Thought, Action and Observation steps; empty for a plain chat reply")
        List<RecursiveReasoner.Step> steps,

        @Schema(description = "The answer the trial reached")
        String inference,

        @Schema(description = "Memories the trial drew on") List<UUID> memoryIds,

        @Schema(description = "The user's feedback on this trial's answer, once given")
        FeedbackNote feedback) {

    @Schema(description = "Feedback on a trial's answer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record FeedbackNote(String verdict, String hint, String answer) {}

    /** A trial reasoned by R^3, before any feedback on it. */
    static Trial reasoned(int number, RecursiveReasoner.Reasoning reasoning) {
        return new Trial(number, reasoning.steps(), reasoning.inference(), reasoning.memoryIds(), null);
    }

    /** This trial as R^3 reads an earlier attempt: its answer and what the user said about it. */
    RecursiveReasoner.EarlierAnswer asEarlierAnswer() {
        return new RecursiveReasoner.EarlierAnswer(
                number,
                inference,
                feedback == null ? null : feedback.verdict(),
                feedback == null ? null : feedback.hint());
    }

    static List<RecursiveReasoner.EarlierAnswer> asEarlierAnswers(List<Trial> trials) {
        return trials.stream().map(Trial::asEarlierAnswer).toList();
    }

    Trial withFeedback(FeedbackNote note) {
        return new Trial(number, steps, inference, memoryIds, note);
    }
}
