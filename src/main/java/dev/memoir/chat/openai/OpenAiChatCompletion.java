package dev.memoir.chat.openai;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.memoir.chat.turn.UsedMemory;

/** A chat completion in OpenAI's format, with what Memoir did in an extra {@code memoir} field. */
record OpenAiChatCompletion(
        String id, String object, long created, String model, List<Choice> choices, Usage usage, Memoir memoir) {

    record Choice(
            int index,
            Message message,
            @JsonProperty("finish_reason") String finishReason) {}

    record Message(String role, String content) {}

    /**
     * Tokens as Memoir's tokenizer counts the user's latest message and the reply: not the prompt the model was sent
     * (instructions, recent turns and memory besides), whose count the model server reports per step.
     */
    record Usage(
            @JsonProperty("prompt_tokens") int promptTokens,
            @JsonProperty("completion_tokens") int completionTokens,
            @JsonProperty("total_tokens") int totalTokens) {}

    /** The session used, the turns stored and the memories the reply was given. */
    record Memoir(UUID sessionId, UUID userTurnId, UUID turnId, boolean remembered, List<UsedMemory> memories) {}
}
