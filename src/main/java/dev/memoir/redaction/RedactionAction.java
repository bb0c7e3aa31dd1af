package dev.memoir.redaction;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** What is done with a class found in a text that reaches Memoir. */
enum RedactionAction {
    /** Kept as written. */
    OFF,
    /** Replaced by its class and a token stable within the tenant. */
    MASK,
    /** The request is refused (422 {@code sensitive-data-refused}); nothing of it is stored. */
    REFUSE;

    @JsonValue
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    static RedactionAction fromWireName(String value) {
        return WireNames.parse(RedactionAction.class, value, "action");
    }
}
