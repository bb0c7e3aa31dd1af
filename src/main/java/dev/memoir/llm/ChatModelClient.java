package dev.memoir.llm;

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;

/**
 * The one way the pipelines call the chat model, each call made for one {@link ModelStep}. Every request starts
 * from the chat model's configured options ({@code spring.ai.openai.chat.*}: model, temperature, ...) with the
 * step's own on top: the {@value ModelStep#HEADER} header, a JSON step's schema as the {@code response_format},
 * the answer limit and a timeout sized to the prompt. Each prompt is laid out within the model's context
 * ({@link ContextWindow}); what comes back is read leniently with the step's reader. Transient failures (the server
 * unreachable, overloaded or failing) are retried with backoff and jitter, a timeout never at once; every failure
 * becomes a {@link ModelCallException} with a stable code and the server's own message. Counts calls
 * ({@code memoir.model.calls}), prompt and completion tokens ({@code memoir.model.tokens}) and shortened prompts
 * ({@code memoir.model.prompts.shortened}) per pipeline step. Each call, its retries included, is one
 * {@code memoir.model.step} observation tagged with the step's name, the parent of Spring AI's own
 * {@code gen_ai.client.operation} observation of each request, so that a trace shows which step asked the model.
 */
@Component
public class ChatModelClient {

    private static final Logger log = LoggerFactory.getLogger(ChatModelClient.class);

    private final ChatModel chatModel;
    private final ContextWindow window;
    private final PromptTemplates prompts;
    private final PromptFitter fitter;
    private final TokenCounter tokens;
    private final ModelProperties properties;
    private final MeterRegistry meters;
    private final ObservationRegistry observations;
    private final OpenAiChatOptions defaults;
    private volatile String answeringModel;

    ChatModelClient(ChatModel chatModel, ContextWindow window, PromptTemplates prompts, TokenCounter tokens,
            ModelProperties properties, MeterRegistry meters, ObservationRegistry observations) {
        this.chatModel = chatModel;
        this.window = window;
        this.prompts = prompts;
        this.fitter = new PromptFitter(tokens);
        this.tokens = tokens;
        this.properties = properties;
        this.meters = meters;
        this.observations = observations;
        this.defaults = configured(chatModel.getOptions());
    }

    /**
     * The chat model's own options as Spring AI bound them. A prompt's options replace them rather than being
     * merged with them (Spring AI 2.0), so every request starts from a copy of these.
     */
    private static OpenAiChatOptions configured(ChatOptions options) {
        if (options instanceof OpenAiChatOptions openAi) {
            return openAi;
        }
        OpenAiChatOptions.Builder builder = OpenAiChatOptions.builder();
        if (options != null) {
            builder.model(options.getModel()).temperature(options.getTemperature()).topP(options.getTopP())
                    .maxTokens(options.getMaxTokens()).stopSequences(options.getStopSequences())
                    .frequencyPenalty(options.getFrequencyPenalty()).presencePenalty(options.getPresencePenalty());
        }
        return builder.build();
    }

    /** The model every request names ({@code spring.ai.openai.chat.model}). */
    public String configuredModel() {
        return defaults.getDeploymentName() != null ? defaults.getDeploymentName() : defaults.getModel();
    }

    /**
     * The model the server named in its latest answer (servers name the model that answered, which may be more
     * precise than the one asked for), or the configured one before any answer.
     */
    public String answeringModel() {
        String model = answeringModel;
        return model != null ? model : configuredModel();
    }

    /** An answer, and the model the server says wrote it. */
    public record Answered<T>(T answer, String model) {
    }

    /**
     * Asks the step's question, its template filled with {@code values} as the one user message, and reads the
     * answer. An answer that is empty, not the JSON asked for, or JSON the step's reader cannot use fails with
     * {@link ModelCallException} ({@code model-unusable-answer}) like an error status would: a background job is
     * retried, a reply becomes a 502.
     */
    public <T> T ask(ModelStep<T> step, Map<String, String> values) {
        return ask(step, PromptValues.of(values));
    }

    /** Like {@link #ask(ModelStep, Map)}, with values whose parts may be shortened one by one. */
    public <T> T ask(ModelStep<T> step, PromptValues values) {
        Request request = request(step, values);
        return usable(step, call(request).text(), request.values());
    }

    /**
     * Like {@link #ask(ModelStep, Map)}, for steps that can go on without an answer: one the step cannot use gives
     * empty, and the caller decides what to do instead.
     */
    public <T> Optional<T> askOrEmpty(ModelStep<T> step, Map<String, String> values) {
        return askOrEmpty(step, PromptValues.of(values));
    }

    /** Like {@link #askOrEmpty(ModelStep, Map)}, with values whose parts may be shortened one by one. */
    public <T> Optional<T> askOrEmpty(ModelStep<T> step, PromptValues values) {
        Request request = request(step, values);
        String text = call(request).text();
        if (!step.structured()) {
            return text.isBlank() ? Optional.empty() : Optional.of(plainText(step, text));
        }
        return answer(step, text).json().flatMap(json -> read(step, json, request.values()));
    }

    /**
     * Like {@link #ask(ModelStep, Map)}, with the messages laid out by the caller within
     * {@link ContextWindow#promptTokens(int)}; {@code schemaValues} fill the step's schema.
     */
    public <T> Answered<T> ask(ModelStep<T> step, List<Message> messages, Map<String, String> schemaValues) {
        Reply reply = call(request(step, messages, schemaValues));
        return new Answered<>(usable(step, reply.text(), schemaValues), reply.model());
    }

    /**
     * Like {@link #ask(ModelStep, List, Map)}, with the answer streamed: {@code onText} gets each piece of the
     * answer's text as the model writes it, on the calling thread, which this call blocks until the answer is
     * complete; the complete answer is then read as a whole. A failure after some pieces were handed on fails the
     * call like one before them would (and is not retried).
     */
    public <T> Answered<T> stream(ModelStep<T> step, List<Message> messages, Map<String, String> schemaValues,
            Consumer<String> onText) {
        Request request = request(step, messages, schemaValues);
        Streamed streamed = new Streamed();
        // Once part of the answer went to onText, the request is not sent again: its pieces cannot be taken back.
        observed(step, () -> withRetries(request, () -> streamed.text.isEmpty(), () -> {
            Stream<ChatResponse> stream;
            try {
                stream = chatModel.stream(prompt(request, true)).toStream();
            } catch (RuntimeException e) {
                throw failed(request, e);
            }
            // Closing the stream cancels the model's answer, should onText fail half way.
            try (stream) {
                Iterator<ChatResponse> chunks = stream.iterator();
                while (true) {
                    ChatResponse chunk;
                    try {
                        if (!chunks.hasNext()) {
                            return streamed;
                        }
                        chunk = chunks.next();
                    } catch (RuntimeException e) {
                        throw failed(request, e);
                    }
                    streamed.take(chunk, onText);
                }
            }
        }));
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "success").increment();
        recordTokens(step, streamed.usage);
        return new Answered<>(usable(step, streamed.text.toString(), schemaValues),
                streamed.model != null ? streamed.model : configuredModel());
    }

    /** A streamed answer so far: its text, the chunk that reported token counts, the model the chunks named. */
    private final class Streamed {

        private final StringBuilder text = new StringBuilder();
        private ChatResponse usage;
        private String model;

        void take(ChatResponse chunk, Consumer<String> onText) {
            if (hasUsage(chunk)) {
                usage = chunk;
            }
            if (modelOf(chunk) != null) {
                model = modelOf(chunk);
                answeringModel = model;
            }
            String piece = textOf(chunk);
            if (!piece.isEmpty()) {
                text.append(piece);
                onText.accept(piece);
            }
        }
    }

    /** One request to send: the step, its messages, their size as counted, and its schema, if any. */
    private record Request(ModelStep<?> step, List<Message> messages, int promptTokens, String schema,
            Map<String, String> values) {

        String text() {
            return messages.stream().map(Message::getText).collect(Collectors.joining("\n"));
        }
    }

    private Request request(ModelStep<?> step, PromptValues values) {
        PromptFitter.Fitted fitted = fitter.fit(step.name(), prompts.template(step.name()), values,
                window.promptTokens(1));
        if (fitted.shortened()) {
            meters.counter("memoir.model.prompts.shortened", "step", step.label()).increment();
            log.debug("The {} prompt was shortened to {} tokens to fit the model's context", step.label(),
                    fitted.tokens());
        }
        return new Request(step, List.of(new UserMessage(fitted.prompt())), fitted.tokens(),
                step.structured() ? step.schema(fitted.values()) : null, fitted.values());
    }

    private Request request(ModelStep<?> step, List<Message> messages, Map<String, String> schemaValues) {
        int counted = messages.stream().mapToInt(m -> tokens.count(m.getText())).sum();
        if (counted > window.promptTokens(messages.size())) {
            // The caller's budgets keep every prompt within the context; a prompt beyond it is a bug, not a
            // request to send and have refused (or silently cut) by the server.
            throw new IllegalStateException("The " + step.label() + " prompt takes " + counted + " tokens, beyond the "
                    + window.promptTokens(messages.size()) + " the model's context leaves for it");
        }
        return new Request(step, List.copyOf(messages), counted,
                step.structured() ? step.schema(schemaValues) : null, schemaValues);
    }

    /**
     * The configured options with the step's on top. The answer limit goes out as max_completion_tokens where
     * Spring AI is configured with that (OpenAI's reasoning models refuse max_tokens), as max_tokens otherwise.
     */
    private Prompt prompt(Request request, boolean streamed) {
        Map<String, String> headers = new HashMap<>();
        if (defaults.getCustomHeaders() != null) {
            headers.putAll(defaults.getCustomHeaders());
        }
        headers.put(ModelStep.HEADER, request.step().name());
        OpenAiChatOptions.Builder options = defaults.mutate()
                .customHeaders(headers)
                .timeout(window.timeout(request.promptTokens()));
        if (defaults.getMaxCompletionTokens() != null) {
            options.maxTokens(null).maxCompletionTokens(window.answerTokens());
        } else {
            options.maxTokens(window.answerTokens());
        }
        if (request.schema() != null) {
            options.outputSchema(request.schema());
        }
        if (streamed) {
            options.streamUsage(true);
        }
        return new Prompt(request.messages(), options.build());
    }

    /** The answer's text and the model the server named. */
    private record Reply(String text, String model) {
    }

    private Reply call(Request request) {
        ChatResponse response = observed(request.step(), () -> withRetries(request, () -> true, () -> {
            try {
                return chatModel.call(prompt(request, false));
            } catch (RuntimeException e) {
                throw failed(request, e);
            }
        }));
        meters.counter("memoir.model.calls", "step", request.step().label(), "outcome", "success").increment();
        recordTokens(request.step(), response);
        String model = modelOf(response);
        if (model != null) {
            answeringModel = model;
        }
        return new Reply(textOf(response), model == null ? configuredModel() : model);
    }

    /**
     * The call as one {@code memoir.model.step} observation: its span is the parent of each request's
     * {@code gen_ai.client.operation} span (a streamed request's too: Spring AI starts it when the stream is
     * subscribed, on this thread, under this span), and its timer times the step with its retries. The step's name
     * is the only tag: never anything of the prompt or the answer.
     */
    private <R> R observed(ModelStep<?> step, Supplier<R> call) {
        return Observation.createNotStarted("memoir.model.step", observations)
                .lowCardinalityKeyValue("memoir.model.step", step.name())
                .observe(call);
    }

    /**
     * Runs the call, and again after a transient failure, at most {@code memoir.model.max-retries} times, each
     * time after a random wait of up to twice the last one's limit (full jitter, from memoir.model.retry-delay), or
     * what the server's Retry-After asks if that is longer. One line at WARN per failed attempt; the stack trace
     * at DEBUG.
     */
    private <R> R withRetries(Request request, BooleanSupplier resendable, Supplier<R> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (ModelCallException e) {
                boolean retry = e.isTransient() && attempt <= properties.maxRetries() && resendable.getAsBoolean();
                Duration wait = retry ? backoff(attempt, e) : Duration.ZERO;
                log.warn("Model call for {} failed (attempt {} of {}): {}: {}{}", request.step().label(), attempt,
                        properties.maxRetries() + 1, e.code(), e.getMessage(),
                        retry ? "; retrying in " + wait.toMillis() + " ms" : "");
                log.debug("Model call for {} failed", request.step().label(), e);
                if (!retry) {
                    throw e;
                }
                sleep(wait);
            }
        }
    }

    private Duration backoff(int attempt, ModelCallException failure) {
        long limit = properties.retryDelay().toMillis() << Math.min(attempt - 1, 16);
        Duration jittered = Duration.ofMillis(ThreadLocalRandom.current().nextLong(limit + 1));
        return failure.retryAfter().filter(after -> after.compareTo(jittered) > 0).orElse(jittered);
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to call the model again", e);
        }
    }

    private ModelCallException failed(Request request, RuntimeException failure) {
        meters.counter("memoir.model.calls", "step", request.step().label(), "outcome", "error").increment();
        return ModelCallException.from(request.step(), failure, request.text(), window.timeout(request.promptTokens()));
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
    private <T> T usable(ModelStep<T> step, String text, Map<String, String> values) {
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
        return read(step, answer.json().get(), values)
                .orElseThrow(() -> unusable(step, "its JSON did not follow the schema asked for"));
    }

    private static <T> Optional<T> read(ModelStep<T> step, JsonNode json, Map<String, String> values) {
        try {
            return step.reader().apply(json, values);
        } catch (RuntimeException e) {
            // A reader that trips over a value (a number out of range, say) met an answer it cannot use.
            return Optional.empty();
        }
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

    private static String textOf(ChatResponse response) {
        if (response == null || response.getResult() == null || response.getResult().getOutput() == null) {
            return "";
        }
        String text = response.getResult().getOutput().getText();
        return text == null ? "" : text;
    }

    private static String modelOf(ChatResponse response) {
        if (response == null || response.getMetadata() == null) {
            return null;
        }
        String model = response.getMetadata().getModel();
        return model == null || model.isBlank() ? null : model;
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
