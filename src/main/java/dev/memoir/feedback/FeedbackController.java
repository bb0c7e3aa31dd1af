package dev.memoir.feedback;

import java.util.UUID;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.NotFoundException;
import dev.memoir.tenant.TenantId;

/** Feedback on replies, the learning episodes it starts, and what each reply was given and cited. */
@RestController
@RequestMapping("/reflection")
@Tag(name = "Reflection", description = "What Memoir learns from its own replies and from the user's feedback")
class FeedbackController {

    private final FeedbackLearner learner;
    private final EpisodeRepository episodes;
    private final ReplyTraces traces;

    FeedbackController(FeedbackLearner learner, EpisodeRepository episodes, ReplyTraces traces) {
        this.learner = learner;
        this.episodes = episodes;
        this.traces = traces;
    }

    @PostMapping("/feedback")
    @Operation(
            summary = "Give feedback on a reply: a verdict, a hint, a direct answer",
            description = "A correct verdict (or an answer meaning the same as the reply) ends the episode; an "
                    + "incorrect verdict or a hint makes the assistant reason again over its memory (R^3) with the "
                    + "feedback in mind; an answer given outright ends the episode with it. An ended episode "
                    + "reflects its lesson into memory, editing the most similar memory in place.",
            responses = {
                @ApiResponse(responseCode = "200", description = "What the feedback led to"),
                @ApiResponse(responseCode = "400", description = "No verdict, hint or answer; or not a reply"),
                @ApiResponse(responseCode = "404", description = "No such turn for this tenant"),
                @ApiResponse(responseCode = "409", description = "The episode has already ended"),
                @ApiResponse(responseCode = "502", description = "The chat model failed; the feedback is kept")
            })
    FeedbackResult feedback(TenantId tenant, @Valid @RequestBody FeedbackRequest request) {
        return learner.learn(tenant, request);
    }

    @GetMapping("/episodes/{id}")
    @Operation(
            summary = "A learning episode with its whole reasoning trace",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "404", description = "No such episode for this tenant")
            })
    EpisodeView episode(TenantId tenant, @PathVariable UUID id) {
        return episodes.findByIdAndTenantId(id, tenant.value())
                .map(Episode::view)
                .orElseThrow(() -> new NotFoundException("Episode", id));
    }

    @GetMapping("/replies/{turnId}")
    @Operation(
            summary = "What an assistant reply was given and what it cited",
            description = "The memories recalled for the reply, in the order of the prompt, with their scores and "
                    + "whether the reply cited them, and the learning episode about the reply when there is one. "
                    + "A reply imported rather than made by Memoir has no trace (traced is false).",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "The turn is not an assistant reply"),
                @ApiResponse(responseCode = "404", description = "No such turn for this tenant")
            })
    ReplyTraceView reply(TenantId tenant, @PathVariable UUID turnId) {
        return traces.view(tenant, turnId);
    }
}
