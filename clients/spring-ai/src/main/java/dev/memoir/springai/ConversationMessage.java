package dev.memoir.springai;

import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A message of a conversation as Memoir keeps it ({@code /conversations/{id}/messages}): {@code role} is system,
 * user, assistant or tool; an assistant message may carry tool calls, a tool message answers one by its id.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ConversationMessage(
        String role, String content, List<ToolCall> toolCalls, String toolCallId, String name) {

    public ConversationMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ToolCall(String id, String type, String name, String arguments) {}

    /** The same message as another, as far as a conversation tells them apart (empty text is no text). */
    boolean sameAs(ConversationMessage other) {
        return role.equals(other.role)
                && Objects.equals(text(content), text(other.content))
                && toolCalls.stream()
                        .map(ToolCall::id)
                        .toList()
                        .equals(other.toolCalls.stream().map(ToolCall::id).toList())
                && Objects.equals(toolCallId, other.toolCallId);
    }

    private static String text(String content) {
        return content == null ? "" : content;
    }
}
