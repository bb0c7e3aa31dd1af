package dev.memoir.llm;

import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import org.springframework.http.HttpStatus;

import com.openai.core.http.Headers;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.SseException;

import dev.memoir.common.web.ApiException;

/**
 * The chat model failed. Mapped to 504 ({@code model-timeout}) when it did not answer in time, 503
 * ({@code model-unavailable}) when it could not be reached or is overloaded, and 502 ({@code model-error}) when
 * it answered with an error or with an answer that cannot be used ({@code model-unusable-answer}: not the JSON
 * asked for, JSON that breaks the step's schema, or nothing at all). The message names the step and carries the
 * server's own message when it sent one (cleaned by {@link ModelServerMessage}), so that the 502's detail and a
 * job's last error say what the server objected to. An unusable answer is a failure like an error status: a reply
 * is not made of it, and a background job that gets one is retried.
 */
public class ModelCallException extends ApiException {

    private final boolean transientFailure;

    private ModelCallException(
            HttpStatus status,
            String code,
            String message,
            Throwable cause,
            boolean transientFailure,
            Duration retryAfter) {
        super(status, code, message, cause, retryAfter);
        this.transientFailure = transientFailure;
    }

    /** The model answered, but not with anything the step can use. */
    public static ModelCallException unusableAnswer(ModelStep<?> step, String why) {
        return new ModelCallException(
                HttpStatus.BAD_GATEWAY,
                "model-unusable-answer",
                "The chat model's answer during " + step.label() + " could not be used: " + why,
                null,
                false,
                null);
    }

    /**
     * Whether the same request may succeed if sent again soon: the server was unreachable, overloaded or failed
     * (429, 5xx). A timeout is not: the server may still be reading the prompt, and sending it again at once only
     * doubles its work.
     */
    boolean isTransient() {
        return transientFailure;
    }

    static ModelCallException from(ModelStep<?> step, Throwable failure, String prompt, Duration timeout) {
        String where = "The chat model failed during " + step.label() + ": ";
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException
                    || t instanceof HttpTimeoutException
                    || t instanceof TimeoutException) {
                return new ModelCallException(
                        HttpStatus.GATEWAY_TIMEOUT,
                        "model-timeout",
                        where + "no answer within " + timeout.toSeconds() + " s (the request's timeout: "
                                + "spring.ai.openai.timeout plus its size at memoir.model.prompt-tokens-per-second "
                                + "and answer-tokens-per-second)",
                        failure,
                        false,
                        null);
            }
            if (t instanceof SseException sse) {
                return new ModelCallException(
                        HttpStatus.BAD_GATEWAY,
                        "model-error",
                        where + "the model server sent an error in the middle of its answer"
                                + said(ModelServerMessage.of(sse, prompt)),
                        failure,
                        false,
                        null);
            }
            if (t instanceof OpenAIServiceException service) {
                return fromStatus(where, service, prompt);
            }
        }
        Optional<OpenAIIoException> io = cause(failure, OpenAIIoException.class);
        if (io.isPresent()) {
            Throwable root = io.get();
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String reason = root.getMessage() == null
                    ? root.getClass().getSimpleName()
                    : root.getClass().getSimpleName() + ": " + ModelServerMessage.clean(root.getMessage(), prompt);
            return new ModelCallException(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "model-unavailable",
                    where + "the model server could not be reached (" + reason + ")",
                    failure,
                    true,
                    null);
        }
        return new ModelCallException(
                HttpStatus.BAD_GATEWAY,
                "model-error",
                where + "the call failed (" + failure.getClass().getSimpleName() + ")",
                failure,
                false,
                null);
    }

    private static ModelCallException fromStatus(String where, OpenAIServiceException service, String prompt) {
        int status = service.statusCode();
        String said = said(ModelServerMessage.of(service, prompt));
        if (status == 429 || status == 503) {
            return new ModelCallException(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "model-unavailable",
                    where + "the model server is overloaded (HTTP " + status + ")" + said,
                    service,
                    true,
                    retryAfter(service.headers()));
        }
        boolean transientFailure = status == 408 || status >= 500;
        return new ModelCallException(
                HttpStatus.BAD_GATEWAY,
                "model-error",
                where + "the model server answered HTTP " + status + said,
                service,
                transientFailure,
                null);
    }

    private static String said(Optional<String> message) {
        return message.map(m -> ": " + m).orElse("");
    }

    /** The server's Retry-After in seconds (OpenAI also sends retry-after-ms), bounded to a minute. */
    private static Duration retryAfter(Headers headers) {
        try {
            if (!headers.values("retry-after-ms").isEmpty()) {
                return bounded(Duration.ofMillis((long)
                        Double.parseDouble(headers.values("retry-after-ms").getFirst())));
            }
            if (!headers.values("retry-after").isEmpty()) {
                return bounded(Duration.ofMillis(
                        (long) (Double.parseDouble(headers.values("retry-after").getFirst()) * 1000)));
            }
        } catch (NumberFormatException e) {
            // An HTTP date or garbage: the caller's own backoff applies.
        }
        return null;
    }

    private static Duration bounded(Duration wait) {
        return wait.isNegative()
                ? Duration.ZERO
                : wait.compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : wait;
    }

    private static <T extends Throwable> Optional<T> cause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }
}
