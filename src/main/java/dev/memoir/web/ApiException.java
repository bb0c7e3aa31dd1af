package dev.memoir.web;

import org.springframework.http.HttpStatus;

/**
 * An error a client can act on. Each carries a stable code, which becomes both the ProblemDetail's
 * {@code code} property and the last segment of its {@code type} URI.
 */
public abstract class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;

    protected ApiException(HttpStatus status, String code, String message) {
        this(status, code, message, null);
    }

    protected ApiException(HttpStatus status, String code, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }
}
