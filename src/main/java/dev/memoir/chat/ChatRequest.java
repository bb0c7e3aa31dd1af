package dev.memoir.chat;

import java.util.UUID;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.VisibleText;

record ChatRequest(
        @Schema(description = "An open session of the calling tenant") @NotNull
        UUID sessionId,

        @Schema(description = "The user's message", example = "Please always answer me in French.")
        @NotBlank
        @VisibleText
        @Size(max = FieldConstraints.CHAT_MESSAGE)
        String message,

        @Schema(
                description = "Answer by reasoning step by step over memory (R^3) for this message; omitted, the "
                        + "session's setting decides",
                example = "false")
        Boolean reasoning) {}
