package dev.memoir.session.conversations;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;

record ConversationAppend(
        @Schema(description = "The user the conversation belongs to; a conversation is one user's", example = "alice")
        @UserIdentifier
        String userId,

        @Schema(description = "The messages to add after those the conversation holds, in order")
        @NotNull
        @Size(min = 1, max = FieldConstraints.IMPORTED_TURNS)
        List<@Valid @NotNull ConversationMessage> messages) {}
