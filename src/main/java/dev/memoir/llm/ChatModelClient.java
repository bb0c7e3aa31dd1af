package dev.memoir.llm;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The one way the pipelines call the chat model. Structured steps send their JSON schema as an OpenAI
 * {@code response_format}; whatever comes back is read leniently, and provider failures become
 * {@link ModelCallException}s with a stable code. Counts calls ({@code memoir.model.calls}) and prompt and
 * completion tokens ({@code memoir.model.tokens}) per pipeline step.
 */
@Component
public class ChatModelClient {

    private static final Logger log = LoggerFactory.getLogger(ChatModelClient.class);

    private final ChatModel chatModel;
    private final Duration timeout;
    private final MeterRegistry meters;

    // Spring AI sends each request with its chat options' timeout, which defaults to 60 s whatever
    // spring.ai.openai.timeout says; passing the configured one keeps that property meaningful.
    ChatModelClient(ChatModel chatModel, @Value("${spring.ai.openai.timeout:60s}") Duration timeout,
            MeterRegistry meters) {
        this.chatModel = chatModel;
        this.timeout = timeout;
        this.meters = meters;
    }

    /** Asks for a JSON object following {@code jsonSchema}; a malformed answer gives an empty {@code json}. */
    public ModelAnswer askJson(ChatStep step, List<Message> messages, String jsonSchema) {
        OpenAiChatOptions options = OpenAiChatOptions.builder().outputSchema(jsonSchema).timeout(timeout).build();
        String text = call(step, new Prompt(messages, options));
        ModelAnswer answer = new ModelAnswer(text, LenientJson.object(text));
        if (answer.json().isEmpty()) {
            log.warn("The model's answer for {} is not the JSON asked for: {}", step.label(), abbreviate(text));
        }
        return answer;
    }

    /** Asks for plain text. */
    public String askText(ChatStep step, List<Message> messages) {
        return call(step, new Prompt(messages, OpenAiChatOptions.builder().timeout(timeout).build()));
    }

    private String call(ChatStep step, Prompt prompt) {
        ChatResponse response;
        try {
            response = chatModel.call(prompt);
        } catch (RuntimeException e) {
            meters.counter("memoir.model.calls", "step", step.label(), "outcome", "error").increment();
            throw ModelCallException.from(step, e);
        }
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "success").increment();
        recordTokens(step, response);
        if (response == null || response.getResult() == null || response.getResult().getOutput() == null) {
            return "";
        }
        String text = response.getResult().getOutput().getText();
        return text == null ? "" : text;
    }

    private void recordTokens(ChatStep step, ChatResponse response) {
        if (response == null || response.getMetadata() == null || response.getMetadata().getUsage() == null) {
            return;
        }
        Usage usage = response.getMetadata().getUsage();
        if (usage.getPromptTokens() != null) {
            meters.counter("memoir.model.tokens", "step", step.label(), "type", "prompt")
                    .increment(usage.getPromptTokens());
        }
        if (usage.getCompletionTokens() != null) {
            meters.counter("memoir.model.tokens", "step", step.label(), "type", "completion")
                    .increment(usage.getCompletionTokens());
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
