package dev.memoir.memory;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Whose traits a topic memory describes. */
public enum Speaker {
    USER, ASSISTANT;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Speaker fromWireName(String value) {
        return Speaker.valueOf(value.strip().toUpperCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return wireName();
    }
}
