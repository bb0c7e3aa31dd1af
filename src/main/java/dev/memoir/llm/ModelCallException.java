package dev.memoir.llm;

import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

import org.springframework.http.HttpStatus;

import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;

import dev.memoir.web.ApiException;

/**
 * The chat model failed. Mapped to 504 ({@code model-timeout}) when it did not answer in time, 503
 * ({@code model-unavailable}) when it could not be reached or is overloaded, and 502 ({@code model-error}) when
 * it answered with an error.
 */
public class ModelCallException extends ApiException {

    private ModelCallException(HttpStatus status, String code, String message, Throwable cause) {
        super(status, code, message, cause);
    }

    static ModelCallException from(ChatStep step, Throwable failure) {
        String where = "The chat model failed during " + step.label() + ": ";
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException || t instanceof HttpTimeoutException
                    || t instanceof TimeoutException) {
                return new ModelCallException(HttpStatus.GATEWAY_TIMEOUT, "model-timeout",
                        where + "no answer in time", failure);
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
        return new ModelCallException(HttpStatus.BAD_GATEWAY, "model-error", where + failure.getMessage(), failure);
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
