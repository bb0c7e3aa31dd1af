package dev.memoir.session.store;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

public enum SessionStatus {
    OPEN,
    CLOSED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return wireName();
    }
}
