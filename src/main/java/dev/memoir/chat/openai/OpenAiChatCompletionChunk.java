package dev.memoir.chat.openai;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One event of a streamed chat completion in OpenAI's format. The chunk that finishes the reply also carries
 * Memoir's {@code memoir} field, as the plain completion does.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record OpenAiChatCompletionChunk(
        String id,
        String object,
        long created,
        String model,
        List<Choice> choices,
        OpenAiChatCompletion.Usage usage,
        OpenAiChatCompletion.Memoir memoir) {

    OpenAiChatCompletionChunk(String id, long created, String model, List<Choice> choices) {
        this(id, "chat.completion.chunk", created, model, choices, null, null);
    }

    /** {@code finish_reason} is written as null until the last chunk, as OpenAI does. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Choice(
            int index,
            Delta delta,
            @JsonProperty("finish_reason") String finishReason) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Delta(String role, String content) {}
}
