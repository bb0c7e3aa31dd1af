package dev.memoir.memory.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

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
        return WireNames.parse(SearchMode.class, value, "search mode");
    }

    public boolean usesDense() {
        return this != LEXICAL;
    }

    public boolean usesLexical() {
        return this != DENSE;
    }
}
