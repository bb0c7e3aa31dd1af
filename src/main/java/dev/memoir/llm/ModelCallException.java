package dev.memoir.llm;

import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

import org.springframework.http.HttpStatus;

import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.SseException;

import dev.memoir.web.ApiException;

/**
 * The chat model failed. Mapped to 504 ({@code model-timeout}) when it did not answer in time, 503
 * ({@code model-unavailable}) when it could not be reached or is overloaded, and 502 ({@code model-error}) when
 * it answered with an error or with an answer that cannot be used ({@code model-unusable-answer}: not the JSON
 * asked for, JSON that breaks the step's schema, or nothing at all). An unusable answer is a failure like an
 * error status: a reply is not made of it, and a background job that gets one is retried.
 */
public class ModelCallException extends ApiException {

    private ModelCallException(HttpStatus status, String code, String message, Throwable cause) {
        super(status, code, message, cause);
    }

    /** The model answered, but not with anything the step can use. */
    public static ModelCallException unusableAnswer(ModelStep<?> step, String why) {
        return new ModelCallException(HttpStatus.BAD_GATEWAY, "model-unusable-answer",
                "The chat model's answer during " + step.label() + " could not be used: " + why, null);
    }

    static ModelCallException from(ModelStep<?> step, Throwable failure) {
        String where = "The chat model failed during " + step.label() + ": ";
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException || t instanceof HttpTimeoutException
                    || t instanceof TimeoutException) {
                return new ModelCallException(HttpStatus.GATEWAY_TIMEOUT, "model-timeout",
                        where + "no answer in time", failure);
            }
            if (t instanceof SseException) {
                return new ModelCallException(HttpStatus.BAD_GATEWAY, "model-error",
                        where + "the model server sent an error in the middle of its answer", failure);
            }
            if (t instanceof OpenAIServiceException service) {
                int status = service.statusCode();
                if (status == 429 || status == 503) {
                    return new ModelCallException(HttpStatus.SERVICE_UNAVAILABLE, "model-unavailable",
                            where + "the model server is overloaded (HTTP " + status + ")", failure);
                }
                return new ModelCallException(HttpStatus.BAD_GATEWAY, "model-error",
                        where + "the model server answered HTTP " + status, failure);
            }
        }
        if (hasCause(failure, OpenAIIoException.class)) {
            return new ModelCallException(HttpStatus.SERVICE_UNAVAILABLE, "model-unavailable",
                    where + "the model server could not be reached", failure);
        }
        return new ModelCallException(HttpStatus.BAD_GATEWAY, "model-error", where + "the call failed (" + failure.getClass().getSimpleName() + ")", failure);
    }

    private static boolean hasCause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
