package dev.memoir.llm;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The one way the pipelines call the chat model, each call made for one {@link ModelStep}: the step's template is
 * the prompt, its name tags the request, a JSON step sends its schema as an OpenAI {@code response_format} and
 * whatever comes back is read leniently with the step's reader; provider failures become
 * {@link ModelCallException}s with a stable code. Counts calls ({@code memoir.model.calls}) and prompt and
 * completion tokens ({@code memoir.model.tokens}) per pipeline step.
 */
@Component
public class ChatModelClient {

    private static final Logger log = LoggerFactory.getLogger(ChatModelClient.class);

    private final ChatModel chatModel;
    private final Duration timeout;
    private final MeterRegistry meters;
    private final PromptTemplates prompts;

    // Spring AI sends each request with its chat options' timeout, which defaults to 60 s whatever
    // spring.ai.openai.timeout says; passing the configured one keeps that property meaningful.
    ChatModelClient(ChatModel chatModel, @Value("${spring.ai.openai.timeout:60s}") Duration timeout,
            MeterRegistry meters, PromptTemplates prompts) {
        this.chatModel = chatModel;
        this.prompts = prompts;
        this.timeout = timeout;
        this.meters = meters;
    }

    /**
     * Asks the step's question, its template rendered with {@code values} as the one user message, and reads the
     * answer. An answer that is empty, not the JSON asked for, or JSON the step's reader cannot use fails with
     * {@link ModelCallException} ({@code model-unusable-answer}) like an error status would: a background job is
     * retried, a reply becomes a 502.
     */
    public <T> T ask(ModelStep<T> step, Map<String, String> values) {
        return ask(step, List.of(new UserMessage(prompts.render(step, values))));
    }

    /** Like {@link #ask(ModelStep, Map)}, with the messages given (the step's template rendered by the caller). */
    public <T> T ask(ModelStep<T> step, List<Message> messages) {
        return usable(step, call(step, new Prompt(messages, options(step).build())));
    }

    /**
     * Like {@link #ask(ModelStep, Map)}, for steps that can go on without an answer: one the step cannot use gives
     * empty, and the caller decides what to do instead.
     */
    public <T> Optional<T> askOrEmpty(ModelStep<T> step, Map<String, String> values) {
        String text = call(step, new Prompt(List.of(new UserMessage(prompts.render(step, values))),
                options(step).build()));
        if (!step.structured()) {
            return text.isBlank() ? Optional.empty() : Optional.of(plainText(step, text));
        }
        return answer(step, text).json().flatMap(step.reader());
    }

    /**
     * Like {@link #ask(ModelStep, List)}, with the answer streamed: {@code onText} gets each piece of the answer's
     * text as the model writes it, on the calling thread, which this call blocks until the answer is complete; the
     * complete answer is then read as a whole. A failure after some pieces were handed on fails the call like one
     * before them would.
     */
    public <T> T stream(ModelStep<T> step, List<Message> messages, Consumer<String> onText) {
        OpenAiChatOptions options = options(step).streamUsage(true).build();
        StringBuilder text = new StringBuilder();
        ChatResponse withUsage = null;
        Stream<ChatResponse> stream;
        try {
            stream = chatModel.stream(new Prompt(messages, options)).toStream();
        } catch (RuntimeException e) {
            throw failed(step, e);
        }
        // Closing the stream cancels the model's answer, should onText fail half way.
        try (stream) {
            Iterator<ChatResponse> chunks = stream.iterator();
            while (true) {
                ChatResponse chunk;
                try {
                    if (!chunks.hasNext()) {
                        break;
                    }
                    chunk = chunks.next();
                } catch (RuntimeException e) {
                    throw failed(step, e);
                }
                if (hasUsage(chunk)) {
                    withUsage = chunk;
                }
                String piece = textOf(chunk);
                if (!piece.isEmpty()) {
                    text.append(piece);
                    onText.accept(piece);
                }
            }
        }
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "success").increment();
        recordTokens(step, withUsage);
        return usable(step, text.toString());
    }

    /** Every request names its step in a header, and a JSON step sends its schema as the response format. */
    private OpenAiChatOptions.Builder options(ModelStep<?> step) {
        OpenAiChatOptions.Builder options = OpenAiChatOptions.builder().timeout(timeout)
                .customHeaders(Map.of(ModelStep.HEADER, step.name()));
        if (step.structured()) {
            options.outputSchema(step.jsonSchema());
        }
        return options;
    }

    private static ModelAnswer answer(ModelStep<?> step, String text) {
        ModelAnswer answer = new ModelAnswer(text, LenientJson.object(text));
        if (answer.json().isEmpty()) {
            // Sizes only: the answer may repeat the user's words, which must not outlive an erasure in the logs.
            log.warn("The model's answer for {} is not the JSON asked for ({} characters)", step.label(),
                    text.length());
        }
        return answer;
    }

    /** The answer read as the step reads it; one it cannot use fails the call. */
    private <T> T usable(ModelStep<T> step, String text) {
        if (!step.structured()) {
            if (text.isBlank()) {
                throw unusable(step, "it was empty");
            }
            return plainText(step, text);
        }
        ModelAnswer answer = answer(step, text);
        if (answer.json().isEmpty()) {
            throw unusable(step, answer.text().isBlank() ? "it was empty" : "it was not the JSON object asked for");
        }
        Optional<T> read;
        try {
            read = step.reader().apply(answer.json().get());
        } catch (RuntimeException e) {
            // A reader that trips over a value (a number out of range, say) met an answer it cannot use.
            read = Optional.empty();
        }
        return read.orElseThrow(() -> unusable(step, "its JSON did not follow the schema asked for"));
    }

    /** A plain-text step's answer is its text ({@link ModelStep#text} makes such steps {@code ModelStep<String>}). */
    @SuppressWarnings("unchecked")
    private static <T> T plainText(ModelStep<T> step, String text) {
        return (T) LenientJson.clip(text.strip());
    }

    private ModelCallException unusable(ModelStep<?> step, String why) {
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "unusable").increment();
        log.warn("The model's answer for {} could not be used: {}", step.label(), why);
        return ModelCallException.unusableAnswer(step, why);
    }

    private String call(ModelStep<?> step, Prompt prompt) {
        ChatResponse response;
        try {
            response = chatModel.call(prompt);
        } catch (RuntimeException e) {
            throw failed(step, e);
        }
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "success").increment();
        recordTokens(step, response);
        return textOf(response);
    }

    private ModelCallException failed(ModelStep<?> step, RuntimeException failure) {
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "error").increment();
        return ModelCallException.from(step, failure);
    }

    private static String textOf(ChatResponse response) {
        if (response == null || response.getResult() == null || response.getResult().getOutput() == null) {
            return "";
        }
        String text = response.getResult().getOutput().getText();
        return text == null ? "" : text;
    }

    /** A streamed answer reports its token counts in one of its last chunks only. */
    private static boolean hasUsage(ChatResponse response) {
        if (response == null || response.getMetadata() == null || response.getMetadata().getUsage() == null) {
            return false;
        }
        Usage usage = response.getMetadata().getUsage();
        return usage.getPromptTokens() != null && usage.getPromptTokens() > 0
                || usage.getCompletionTokens() != null && usage.getCompletionTokens() > 0;
    }

    private void recordTokens(ModelStep<?> step, ChatResponse response) {
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
}
