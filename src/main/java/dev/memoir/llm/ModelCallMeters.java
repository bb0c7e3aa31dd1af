package dev.memoir.llm;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;

import dev.memoir.common.web.Observed;

/**
 * What a model call is measured by, per pipeline step: the {@code memoir.model.step} observation around the call,
 * calls by outcome ({@code memoir.model.calls}), prompt and completion tokens ({@code memoir.model.tokens}) and
 * shortened prompts ({@code memoir.model.prompts.shortened}). The around-call part is in the shape of a Spring AI
 * call advisor, for the model is called through {@code ChatModel}, which has no advisor chain.
 */
final class ModelCallMeters {

    private final MeterRegistry meters;
    private final Observed observations;
    private final UsageTeller teller;
    private final Supplier<String> configuredModel;

    ModelCallMeters(MeterRegistry meters, Observed observations, UsageTeller teller, Supplier<String> configuredModel) {
        this.meters = meters;
        this.observations = observations;
        this.teller = teller;
        this.configuredModel = configuredModel;
    }

    /**
     * The call, its retries included, as one {@code memoir.model.step} observation: its span is the parent of each
     * request's {@code gen_ai.client.operation} span (a streamed request's too: Spring AI starts it when the stream
     * is subscribed, on this thread, under this span), and its timer times the step with its retries. The step's
     * name is the only tag: never anything of the prompt or the answer. A call that succeeds is then counted, with
     * the tokens of the response {@code usage} finds in its result.
     */
    <R> R around(ModelStep<?> step, Function<? super R, ChatResponse> usage, Supplier<R> call) {
        R result = observations
                .observation(Observed.Name.MODEL_STEP)
                .lowCardinalityKeyValue("memoir.model.step", step.name())
                .observe(call);
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "success")
                .increment();
        tokens(step, usage.apply(result));
        return result;
    }

    /** Counts one failed attempt, and gives the failure as the caller sees it. */
    ModelCallException failed(ModelRequest request, RuntimeException failure) {
        meters.counter("memoir.model.calls", "step", request.step().label(), "outcome", "error")
                .increment();
        teller.tell(new ModelUsage(
                ModelUsage.Kind.CHAT, request.step().label(), configuredModel.get(), 0, 0, false, Duration.ZERO, true));
        return request.failure(failure);
    }

    /**
     * Tells the usage listeners of a request answered: with the tokens the server reported in {@code response}, or
     * where it reported none, the prompt as counted when it was laid out and the answer's text counted now.
     */
    void answered(ModelRequest request, ChatResponse response, String text, String model, Duration took) {
        if (!teller.listened()) {
            return;
        }
        Usage reported = response == null || response.getMetadata() == null
                ? null
                : response.getMetadata().getUsage();
        Integer prompt = reported == null ? null : reported.getPromptTokens();
        Integer completion = reported == null ? null : reported.getCompletionTokens();
        boolean byServer = prompt != null && completion != null && (prompt > 0 || completion > 0);
        teller.tell(new ModelUsage(
                ModelUsage.Kind.CHAT,
                request.step().label(),
                model,
                byServer ? prompt : request.promptTokens(),
                byServer ? completion : teller.count(text),
                byServer,
                took,
                false));
    }

    /** Counts an answer the step could not use. */
    void unusable(ModelStep<?> step) {
        meters.counter("memoir.model.calls", "step", step.label(), "outcome", "unusable")
                .increment();
    }

    /** Counts a prompt shortened to fit the model's context. */
    void shortened(ModelStep<?> step) {
        meters.counter("memoir.model.prompts.shortened", "step", step.label()).increment();
    }

    private void tokens(ModelStep<?> step, ChatResponse response) {
        if (response == null
                || response.getMetadata() == null
                || response.getMetadata().getUsage() == null) {
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
