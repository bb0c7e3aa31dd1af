package dev.memoir.session.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

public enum Role {
    USER,
    ASSISTANT;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Role fromWireName(String value) {
        return WireNames.parse(Role.class, value, "role");
    }

    /**
     * The dialogue role of a chat message's role as chat APIs and exports write it ("user", "assistant", in lower
     * case); empty for the others (system, developer, tool, function, any other), which are not turns of the
     * dialogue. The one mapping from a message's role to a turn's, for the turn import, the OpenAI-compatible
     * endpoint and the export import.
     */
    public static Optional<Role> ofMessageRole(String role) {
        return Arrays.stream(values()).filter(r -> r.wireName().equals(role)).findFirst();
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
