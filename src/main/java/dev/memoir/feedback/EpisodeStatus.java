package dev.memoir.feedback;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where a learning episode stands. */
public enum EpisodeStatus {
    /** Waiting for the user's verdict on the latest answer. */
    OPEN,
    /** The latest answer repeats an earlier one: the assistant needs a hint to go on. */
    NEEDS_FEEDBACK,
    /** Ended with a correct answer, or with the user's own answer. */
    RESOLVED,
    /** Ended after the maximum number of trials. */
    EXHAUSTED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean ended() {
        return this == RESOLVED || this == EXHAUSTED;
    }
}
