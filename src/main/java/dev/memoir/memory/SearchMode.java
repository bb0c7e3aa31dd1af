package dev.memoir.memory;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonValue;

/** Which rankings a search uses. Hybrid fuses both; the others exist to compare and to explain. */
public enum SearchMode {

    /** Full-text and dense rankings fused by reciprocal rank. */
    HYBRID,
    /** Cosine similarity of embeddings only. */
    DENSE,
    /** PostgreSQL full-text ranking only. */
    LEXICAL;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SearchMode fromWireName(String value) {
        String normalized = value.strip().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(mode -> mode.name().equals(normalized)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown search mode '" + value + "'; known modes: "
                        + Arrays.stream(values()).map(SearchMode::wireName).collect(Collectors.joining(", "))));
    }

    boolean usesDense() {
        return this != LEXICAL;
    }

    boolean usesLexical() {
        return this != DENSE;
    }
}
