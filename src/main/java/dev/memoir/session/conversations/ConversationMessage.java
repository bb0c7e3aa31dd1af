package dev.memoir.session.conversations;

import java.util.List;
import java.util.Locale;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.WireNames;

@Schema(
        description = "A message of a client's conversation, as chat APIs write it. A user or assistant message with "
                + "visible text is a turn of the dialogue, from which memory is written; the others (system and tool "
                + "messages, tool calls, messages without text) are kept beside the turns and read back in place")
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ConversationMessage(
        @Schema(example = "assistant") @NotNull MessageRole role,

        @Schema(description = "The message's text; a tool message's result", example = "It is 18 °C in Lyon.")
        @Size(max = FieldConstraints.CHAT_MESSAGE)
        String content,

        @Schema(description = "An assistant message's tool calls") @Size(max = FieldConstraints.TOOL_CALLS)
        List<@Valid @NotNull ToolCall> toolCalls,

        @Schema(description = "A tool message's answer to this tool call", example = "call_1")
        @Size(max = FieldConstraints.TOOL_FIELD)
        String toolCallId,

        @Schema(description = "A tool message's tool", example = "weather") @Size(max = FieldConstraints.TOOL_FIELD)
        String name) {

    /** Dialogue: a user or assistant message with visible text. */
    boolean isDialogue() {
        return (role == MessageRole.USER || role == MessageRole.ASSISTANT) && content != null && !content.isBlank();
    }

    boolean hasToolCalls() {
        return toolCalls != null && !toolCalls.isEmpty();
    }

    /** Who wrote a message, as chat APIs name it. */
    public enum MessageRole {
        SYSTEM,
        USER,
        ASSISTANT,
        TOOL;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static MessageRole fromWireName(String value) {
            return WireNames.parse(MessageRole.class, value, "role");
        }
    }

    @Schema(description = "A tool call an assistant message made")
    public record ToolCall(
            @Schema(example = "call_1") @NotNull @Size(min = 1, max = FieldConstraints.TOOL_FIELD)
            String id,

            @Schema(example = "function") @Size(max = FieldConstraints.TOOL_FIELD)
            String type,

            @Schema(example = "weather") @NotNull @Size(min = 1, max = FieldConstraints.TOOL_FIELD)
            String name,

            @Schema(description = "The call's arguments as the model wrote them", example = "{\"city\":\"Lyon\"}")
            @Size(max = FieldConstraints.CHAT_MESSAGE)
            String arguments) {}
}
