package dev.memoir.session;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.memoir.web.WireNames;

public enum Role {
    USER, ASSISTANT;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Role fromWireName(String value) {
        return WireNames.parse(Role.class, value, "role");
    }

    @Override
    public String toString() {
        return wireName();
    }

    /** How the role is written in prompts and history memories ("User", "Assistant"). */
    public String label() {
        return this == USER ? "User" : "Assistant";
    }
}
