package dev.memoir.chat;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

record ChatReply(
        @Schema(description = "The assistant's answer") String reply,
        @Schema(description = "The stored assistant turn") UUID turnId,
        @Schema(description = "The stored user turn") UUID userTurnId,
        @Schema(description = "Memories given to the model for this reply, best first") List<UsedMemory> memories,
        @Schema(description = "Whether the message was judged worth remembering; its conditional memory is then "
                + "written in the background") boolean remembered) {
}
