package dev.memoir.memory.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** Whose traits a topic memory describes. */
public enum Speaker {
    USER,
    ASSISTANT;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Speaker fromWireName(String value) {
        return WireNames.parse(Speaker.class, value, "speaker");
    }

    @Override
    public String toString() {
        return wireName();
    }
}
