package dev.memoir.chat.turn;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChatReply(
        @Schema(description = "The assistant's answer") String reply,
        @Schema(description = "The stored assistant turn") UUID turnId,
        @Schema(description = "The stored user turn") UUID userTurnId,

        @Schema(description = "Memories given to the model for this reply, best first")
        List<UsedMemory> memories,

        @Schema(
                description = "Whether the message was judged worth remembering; its conditional memory is then "
                        + "written in the background")
        boolean remembered,

        @Schema(
                description = "For a reasoned reply: the episode holding its reasoning trace "
                        + "(GET /reflection/episodes/{id})")
        UUID episodeId,

        @Schema(description = "The model that wrote the reply, as the model server names it", example = "llama3.1")
        String model) {}
