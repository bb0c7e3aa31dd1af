package dev.memoir.llm;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.stereotype.Component;

import dev.memoir.common.web.Observed;

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
 *
 * <p>It lays out each request and has its answer read; every other concern is a small collaborator, those around
 * the call in the shape of Spring AI's call advisors: {@link ModelCallMeters} (the observation and the meters)
 * around {@link ModelCallRetry} (the attempts) around the request, sent with {@link RequestOptions}; a stream is
 * read by {@link StreamedAnswer}, an answer by {@link AnswerReader}.
 */
@Component
public class ChatModelClient {

    private static final Logger log = LoggerFactory.getLogger(ChatModelClient.class);

    private final ChatModel chatModel;
    private final ContextWindow window;
    private final PromptTemplates prompts;
    private final PromptFitter fitter;
    private final TokenCounter tokens;
    private final RequestOptions options;
    private final ModelCallMeters meters;
    private final ModelCallRetry retry;
    private final AnswerReader answers;
    private final ModelCallGate gate;
    private final int attempts;
    private volatile String answeringModel;

    ChatModelClient(
            ChatModel chatModel,
            ContextWindow window,
            PromptTemplates prompts,
            TokenCounter tokens,
            ModelProperties properties,
            MeterRegistry meters,
            Observed observations,
            List<ModelUsageListener> usageListeners,
            List<ModelCallGate> gates) {
        this.chatModel = chatModel;
        this.window = window;
        this.prompts = prompts;
        this.fitter = new PromptFitter(tokens);
        this.tokens = tokens;
        this.options = new RequestOptions(chatModel.getOptions(), window);
        this.meters = new ModelCallMeters(
                meters, observations, new UsageTeller(usageListeners, tokens), options::configuredModel);
        this.retry = new ModelCallRetry(properties);
        this.answers = new AnswerReader(this.meters);
        this.gate = gates.isEmpty() ? ModelCallGate.OPEN : gates.getFirst();
        this.attempts = properties.maxRetries() + 1;
    }

    /** The model every request names ({@code spring.ai.openai.chat.model}). */
    public String configuredModel() {
        return options.configuredModel();
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
    public record Answered<T>(T answer, String model) {}

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
        ModelRequest request = request(step, values);
        try (ModelCallGate.Admission admitted = admit(request, false)) {
            return answers.usable(step, call(request).text(), request.values());
        }
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
        ModelRequest request = request(step, values);
        try (ModelCallGate.Admission admitted = admit(request, true)) {
            if (admitted.skipped()) {
                log.debug("The {} step was skipped: the budget does not allow it now", step.label());
                return Optional.empty();
            }
            return answers.usableOrEmpty(step, call(request).text(), request.values());
        }
    }

    /**
     * Like {@link #ask(ModelStep, Map)}, with the messages laid out by the caller within
     * {@link ContextWindow#promptTokens(int)}; {@code schemaValues} fill the step's schema.
     */
    public <T> Answered<T> ask(ModelStep<T> step, List<Message> messages, Map<String, String> schemaValues) {
        ModelRequest request = request(step, messages, schemaValues);
        try (ModelCallGate.Admission admitted = admit(request, false)) {
            ModelReply reply = call(request);
            return new Answered<>(answers.usable(step, reply.text(), schemaValues), reply.model());
        }
    }

    /**
     * Like {@link #ask(ModelStep, List, Map)}, with the answer streamed: {@code onText} gets each piece of the
     * answer's text as the model writes it, on the calling thread, which this call blocks until the answer is
     * complete; the complete answer is then read as a whole. A failure after some pieces were handed on fails the
     * call like one before them would (and is not retried).
     */
    public <T> Answered<T> stream(
            ModelStep<T> step, List<Message> messages, Map<String, String> schemaValues, Consumer<String> onText) {
        ModelRequest request = request(step, messages, schemaValues);
        try (ModelCallGate.Admission admitted = admit(request, false)) {
            return streamAdmitted(step, request, schemaValues, onText);
        }
    }

    private <T> Answered<T> streamAdmitted(
            ModelStep<T> step, ModelRequest request, Map<String, String> schemaValues, Consumer<String> onText) {
        StreamedAnswer streamed = new StreamedAnswer(onText, model -> answeringModel = model);
        long started = System.nanoTime();
        // Once part of the answer went to onText, the request is not sent again: its pieces cannot be taken back.
        meters.around(
                step,
                StreamedAnswer::usage,
                () -> retry.around(
                        step,
                        streamed::nothingHandedOn,
                        () -> streamed.read(
                                () -> chatModel.stream(options.prompt(request, true))
                                        .toStream(),
                                failure -> meters.failed(request, failure))));
        meters.answered(
                request,
                streamed.usage(),
                streamed.text(),
                streamed.model() != null ? streamed.model() : configuredModel(),
                Duration.ofNanos(System.nanoTime() - started));
        return new Answered<>(
                answers.usable(step, streamed.text(), schemaValues),
                streamed.model() != null ? streamed.model() : configuredModel());
    }

    private ModelRequest request(ModelStep<?> step, PromptValues values) {
        PromptFitter.Fitted fitted =
                fitter.fit(step.name(), prompts.template(step.name()), values, window.promptTokens(1));
        if (fitted.shortened()) {
            meters.shortened(step);
            log.debug(
                    "The {} prompt was shortened to {} tokens to fit the model's context",
                    step.label(),
                    fitted.tokens());
        }
        return new ModelRequest(
                step,
                List.of(new UserMessage(fitted.prompt())),
                fitted.tokens(),
                step.structured() ? step.schema(fitted.values()) : null,
                fitted.values(),
                window.timeout(fitted.tokens()));
    }

    private ModelRequest request(ModelStep<?> step, List<Message> messages, Map<String, String> schemaValues) {
        int counted = messages.stream().mapToInt(m -> tokens.count(m.getText())).sum();
        if (counted > window.promptTokens(messages.size())) {
            // The caller's budgets keep every prompt within the context; a prompt beyond it is a bug, not a
            // request to send and have refused (or silently cut) by the server.
            throw new IllegalStateException("The " + step.label() + " prompt takes " + counted + " tokens, beyond the "
                    + window.promptTokens(messages.size()) + " the model's context leaves for it");
        }
        return new ModelRequest(
                step,
                List.copyOf(messages),
                counted,
                step.structured() ? step.schema(schemaValues) : null,
                schemaValues,
                window.timeout(counted));
    }

    private ModelCallGate.Admission admit(ModelRequest request, boolean optional) {
        long mostPrompt = window.mostTokens(request.promptTokens()) - window.answerTokens();
        // Priced by the name the server answers with, as the usage that is counted is.
        return gate.admit(new ModelCallGate.Call(
                request.step().label(),
                optional,
                answeringModel(),
                mostPrompt,
                window.answerTokens(),
                request.timeout().multipliedBy(attempts)));
    }

    /** The answer's text and the model the server named (the configured one if it named none). */
    private ModelReply call(ModelRequest request) {
        long started = System.nanoTime();
        ChatResponse response = meters.around(
                request.step(),
                answer -> answer,
                () -> retry.around(request.step(), () -> true, () -> {
                    try {
                        return chatModel.call(options.prompt(request, false));
                    } catch (RuntimeException e) {
                        throw meters.failed(request, e);
                    }
                }));
        ModelReply reply = ModelReply.of(response);
        if (reply.model() != null) {
            answeringModel = reply.model();
        }
        meters.answered(
                request,
                response,
                reply.text(),
                reply.model() != null ? reply.model() : configuredModel(),
                Duration.ofNanos(System.nanoTime() - started));
        return reply.model() != null ? reply : new ModelReply(reply.text(), configuredModel());
    }
}
