package dev.memoir.archive;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/** The assistants whose data exports Memoir imports, each with its own {@code conversations.json}. */
enum ExportSource {
    CHATGPT("ChatGPT"), CLAUDE("Claude");

    private final String product;

    ExportSource(String product) {
        this.product = product;
    }

    @JsonValue
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    String product() {
        return product;
    }
}
