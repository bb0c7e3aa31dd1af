package dev.memoir.context;

import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.common.wire.VisibleText;
import dev.memoir.memory.MemorySettingsOverride;
import dev.memoir.memory.api.Trust;

@Schema(description = "Whose memory, for which message, read how")
record ContextRequest(
        @Schema(description = "The user whose memory is read", example = "alice") @UserIdentifier
        String userId,

        @Schema(
                description = "The message a reply would answer; or give messages instead",
                example = "Which database did we pick for the budget tracker?")
        @VisibleText
        @Size(max = FieldConstraints.CHAT_MESSAGE)
        String query,

        @Schema(
                description = "The last messages of the conversation, oldest first, instead of query: the last user "
                        + "message is the query")
        @Valid
        @Size(max = FieldConstraints.CHAT_COMPLETION_MESSAGES)
        List<@NotNull @Valid Message> messages,

        @Schema(
                description = "A session of the user whose memory settings apply; omitted, the service defaults "
                        + "(with memory on top)")
        UUID sessionId,

        @Schema(
                description = "With a session: memories resting on its last this many turns are left out, since "
                        + "your prompt sends them verbatim; 0 when omitted",
                example = "12")
        @Min(0)
        @Max(FieldConstraints.EXCLUDED_RECENT_TURNS)
        Integer excludeRecentTurns,

        @Schema(
                description = "The most memory tokens (cl100k_base), each costing the model's reading time; "
                        + "omitted, the settings' promptTokenBudget (2000 by default)",
                example = "2000")
        @Min(FieldConstraints.PROMPT_TOKEN_BUDGET_MIN)
        @Max(FieldConstraints.PROMPT_TOKEN_BUDGET_MAX)
        Integer tokenBudget,

        @Schema(
                description = "Memory settings as a session takes them, without a sessionId; omitted, the defaults",
                example = "{\"strategy\": \"multi-view\"}")
        @Valid
        MemorySettingsOverride memory,

        @Schema(
                description = "The least trust of a memory shown: low, medium or high (docs/trust.md); omitted, the "
                        + "settings' minTrust (any by default). With high, only the user's live words and what "
                        + "clients told through the REST API, and what was made from them alone.",
                example = "medium")
        Trust minTrust) {

    /** One message of the conversation. */
    record Message(
            @Schema(description = "user, assistant, system or tool", example = "user") @NotBlank
            String role,

            @Schema(description = "Its text") @NotNull @Size(max = FieldConstraints.CHAT_MESSAGE)
            String content) {}
}
