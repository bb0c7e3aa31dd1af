package dev.memoir.feedback;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.memory.api.Trust;

@Schema(description = "What an assistant reply was given and what it cited, and the learning episode about it")
@JsonInclude(JsonInclude.Include.NON_NULL)
record ReplyTraceView(
        @Schema(description = "The assistant turn") UUID turnId,
        UUID sessionId,

        @Schema(description = "False for a reply Memoir did not make (imported dialogue): nothing was recorded")
        boolean traced,

        @Schema(
                description = "The memories the reply was given, in the order of the prompt; a memory deleted "
                        + "since is still listed by its id")
        List<GivenMemory> memories,

        @Schema(
                description = "The learning episode about this reply (a reasoned reply, or one the user gave "
                        + "feedback on): GET /reflection/episodes/{id}; absent when there is none")
        UUID episodeId) {

    @Schema(description = "One memory given to a reply")
    record GivenMemory(
            UUID memoryId,

            @Schema(description = "Cosine similarity to the message when it was recalled")
            double score,

            @Schema(description = "Whether the reply cited it")
            boolean cited,

            @Schema(
                    description = "How far it was trusted when given: low, medium or high (docs/trust.md); absent for "
                            + "replies traced before trust was recorded",
                    example = "high")
            Trust trust) {}
}
