package dev.memoir.archive.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;
import dev.memoir.memory.api.TurnOrigin;

/** The assistants whose data exports Memoir imports, each with its own {@code conversations.json}. */
public enum ExportSource {
    CHATGPT("ChatGPT"),
    CLAUDE("Claude");

    private final String product;

    ExportSource(String product) {
        this.product = product;
    }

    /** How its turns reached Memoir: from this export, trusted low (docs/trust.md). */
    public TurnOrigin turnOrigin() {
        return TurnOrigin.fromWireName(wireName());
    }

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    static ExportSource fromWireName(String value) {
        return WireNames.parse(ExportSource.class, value, "source");
    }

    public String product() {
        return product;
    }
}
