package dev.memoir.springai;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    // How Memoir masks a secret it keeps: "[payment-card #5c1e07aa]".
    private static final Pattern MASK = Pattern.compile("\\[[a-z-]+ #[0-9a-f]{8}]");

    /**
     * The same message as another, as far as a conversation tells them apart (empty text is no text). Either may
     * be as Memoir stored it, its secrets masked: a mask stands for any text.
     */
    boolean sameAs(ConversationMessage other) {
        return role.equals(other.role)
                && sameText(text(content), text(other.content))
                && toolCalls.stream()
                        .map(ToolCall::id)
                        .toList()
                        .equals(other.toolCalls.stream().map(ToolCall::id).toList())
                && Objects.equals(toolCallId, other.toolCallId);
    }

    private static boolean sameText(String a, String b) {
        return a.equals(b) || matchesMasked(a, b) || matchesMasked(b, a);
    }

    private static boolean matchesMasked(String stored, String given) {
        Matcher mask = MASK.matcher(stored);
        StringBuilder regex = new StringBuilder();
        int at = 0;
        boolean masked = false;
        while (mask.find()) {
            masked = true;
            regex.append(Pattern.quote(stored.substring(at, mask.start()))).append("[\\s\\S]+?");
            at = mask.end();
        }
        return masked
                && Pattern.matches(
                        regex.append(Pattern.quote(stored.substring(at))).toString(), given);
    }

    private static String text(String content) {
        return content == null ? "" : content;
    }
}
