package dev.memoir.llm;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The step around a model call that sends it again after a transient failure, in the shape of a Spring AI call
 * advisor: {@link ChatModelClient} calls the model through {@code ChatModel}, not a {@code ChatClient}, so there is
 * no advisor chain to join.
 */
final class ModelCallRetry {

    private static final Logger log = LoggerFactory.getLogger(ModelCallRetry.class);

    private final ModelProperties properties;

    ModelCallRetry(ModelProperties properties) {
        this.properties = properties;
    }

    /**
     * Runs the call, and again after a transient failure while {@code resendable} says the request may be sent
     * again, at most {@code memoir.model.max-retries} times, each time after a random wait of up to twice the last
     * one's limit (full jitter, from memoir.model.retry-delay), or what the server's Retry-After asks if that is
     * longer. One line at WARN per failed attempt; the stack trace at DEBUG.
     */
    <R> R around(ModelStep<?> step, BooleanSupplier resendable, Supplier<R> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (ModelCallException e) {
                boolean retry = e.isTransient() && attempt <= properties.maxRetries() && resendable.getAsBoolean();
                Duration wait = retry ? backoff(attempt, e) : Duration.ZERO;
                log.warn(
                        "Model call for {} failed (attempt {} of {}): {}: {}{}",
                        step.label(),
                        attempt,
                        properties.maxRetries() + 1,
                        e.code(),
                        e.getMessage(),
                        retry ? "; retrying in " + wait.toMillis() + " ms" : "");
                log.debug("Model call for {} failed", step.label(), e);
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
        return failure.retryAfter()
                .filter(after -> after.compareTo(jittered) > 0)
                .orElse(jittered);
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to call the model again", e);
        }
    }
}
