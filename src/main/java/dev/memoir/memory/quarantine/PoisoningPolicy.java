package dev.memoir.memory.quarantine;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** What is done with a memory whose text reads as instructions to an assistant. */
public enum PoisoningPolicy {
    /** Stored and read as any other. */
    ALLOW,
    /** Stored, read, and shown flagged with the signs found. */
    FLAG,
    /** Stored and visible, but never read into a reply or a search until a client or the operator releases it. */
    QUARANTINE;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static PoisoningPolicy fromWireName(String value) {
        return WireNames.parse(PoisoningPolicy.class, value, "policy");
    }
}
