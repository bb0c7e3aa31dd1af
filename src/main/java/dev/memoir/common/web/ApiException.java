package dev.memoir.common.web;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.springframework.http.HttpStatus;

/**
 * An error a client can act on. Each carries a stable code, which becomes both the ProblemDetail's
 * {@code code} property and the last segment of its {@code type} URI, and, when waiting helps, how long to wait
 * before trying again (the {@code Retry-After} header; background jobs wait at least as long).
 */
public abstract class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Duration retryAfter;

    protected ApiException(HttpStatus status, String code, String message) {
        this(status, code, message, null);
    }

    protected ApiException(HttpStatus status, String code, String message, Throwable cause) {
        this(status, code, message, cause, null);
    }

    protected ApiException(HttpStatus status, String code, String message, Throwable cause, Duration retryAfter) {
        super(message, cause);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** Further properties of the ProblemDetail that a client can act on (when a budget renews, say). */
    public Map<String, Object> properties() {
        return Map.of();
    }
}
