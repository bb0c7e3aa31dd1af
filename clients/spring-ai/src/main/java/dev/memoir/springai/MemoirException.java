package dev.memoir.springai;

import java.time.Duration;
import java.util.Optional;

/**
 * A call to Memoir that failed: Memoir's problem detail ({@code code}, {@code status}, {@code detail}) when it
 * answered, {@code memoir-unreachable} with status 0 when it could not be reached, or
 * {@code memoir-answer-unreadable} when its answer could not be read.
 */
public class MemoirException extends RuntimeException {

    /** The code of a failure to reach Memoir at all (refused connection, timeout, unknown host). */
    public static final String UNREACHABLE = "memoir-unreachable";

    /** The code of an answer that is not Memoir's or could not be read (a proxy's page, a redirect, broken JSON). */
    public static final String UNREADABLE = "memoir-answer-unreadable";

    private final int status;
    private final String code;
    private final Duration retryAfter;

    public MemoirException(int status, String code, String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    /** The HTTP status Memoir answered; 0 when it was not reached. */
    public int status() {
        return status;
    }

    /** Memoir's stable error code ({@code unauthorized}, {@code rate-limited}, ...), as its problem detail names it. */
    public String code() {
        return code;
    }

    /** How long Memoir asked to wait before trying again ({@code Retry-After}), when it said. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
