package dev.memoir.memory.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** Where a memory came from (docs/trust.md, "Source and trust"); its {@link MemoryOrigin} says which one. */
public enum MemorySource {
    /**
     * A user's message in a conversation: chat, /v1, a client's conversation log, or a client recording its own
     * exchange through a session's turns.
     */
    USER_TURN,
    /** An assistant's message in a live conversation: Memoir's reply, or one a client's conversation records. */
    ASSISTANT_TURN,
    /** A turn imported afterwards from a ChatGPT or a Claude export (the detail says which). */
    IMPORT,
    /** Told directly through the REST API (the detail names the key). */
    CLIENT,
    /** Told through an MCP tool (the detail names the key): a model chose to write it. */
    MCP,
    /** Learned from the user's feedback on a reply. */
    FEEDBACK,
    /** Restored from an archive file (the detail names the source it was archived with). */
    ARCHIVE,
    /** Made by one of Memoir's jobs from turns (the detail names the kind): trusted as the least of them. */
    DERIVED,
    /** Written before sources were recorded (V59), and not told apart by the migration. */
    UNRECORDED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @JsonCreator
    public static MemorySource fromWireName(String value) {
        return WireNames.parse(MemorySource.class, value, "source");
    }

    @Override
    public String toString() {
        return wireName();
    }
}
