package dev.memoir.session.conversations;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

record ConversationIds(
        @Schema(description = "The tenant's conversation ids, the most recently started first")
        List<String> conversationIds) {}
