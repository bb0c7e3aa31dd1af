package dev.memoir.chat.openai;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.memoir.common.wire.FieldConstraints;

import tools.jackson.databind.JsonNode;

/**
 * A chat-completions request in OpenAI's format. Clients resend the whole conversation each time; Memoir stores
 * what it has not seen and answers the last message, which must be the user's.
 */
record OpenAiChatRequest(
        @Schema(description = "Ignored: Memoir answers with its configured model", example = "memoir")
        String model,

        @Schema(description = "The conversation, oldest first; the last message is the user's new one")
        @NotEmpty
        @Size(max = FieldConstraints.CHAT_COMPLETION_MESSAGES)
        List<@Valid @NotNull Message> messages,

        @Schema(
                description = "true: answer with chat.completion.chunk server-sent events (text/event-stream), the "
                        + "reply's text arriving as the model writes it, ending with data: [DONE]",
                example = "false")
        Boolean stream,

        @Schema(description = "With stream true: include_usage true adds a last chunk with the token usage")
        @JsonProperty("stream_options")
        StreamOptions streamOptions,

        @Schema(description = "The end user whose memory is used (or the X-Memoir-User header)", example = "alice")
        String user) {

    boolean includeUsage() {
        return streamOptions != null && Boolean.TRUE.equals(streamOptions.includeUsage());
    }

    record StreamOptions(
            @Schema(description = "Send a last chunk, with no choices, holding the token usage")
            @JsonProperty("include_usage")
            Boolean includeUsage) {}

    /** One message; {@code content} is a string or a list of content parts, whose text parts are read. */
    record Message(
            @Schema(example = "user", description = "system, developer, user, assistant or tool") @NotNull
            String role,

            @Schema(description = "A string, or a list of {type: text, text} parts", example = "Hi, remember me?")
            JsonNode content) {

        String text() {
            if (content == null || content.isNull()) {
                return "";
            }
            if (content.isString()) {
                return content.asString();
            }
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asString())
                        && part.path("text").isString()) {
                    text.append(text.isEmpty() ? "" : "\n")
                            .append(part.path("text").asString());
                }
            }
            return text.toString();
        }
    }
}
