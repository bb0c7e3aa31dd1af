package dev.memoir.session.conversations;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

record ConversationMessages(
        String conversationId,
        String userId,

        @Schema(description = "The conversation's latest messages, oldest first, as they were added")
        List<ConversationMessage> messages) {}
