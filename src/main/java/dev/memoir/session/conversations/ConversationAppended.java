package dev.memoir.session.conversations;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

record ConversationAppended(
        @Schema(description = "The session the messages went into: the conversation's open one, or a new one")
        UUID sessionId,

        @Schema(description = "How many of them were stored as turns of the dialogue")
        int turns,

        @Schema(description = "How many were kept beside the turns (tool calls, tool and system messages)")
        int sideMessages) {}
