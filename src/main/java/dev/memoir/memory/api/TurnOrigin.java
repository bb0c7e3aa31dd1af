package dev.memoir.memory.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/**
 * How a turn reached Memoir: said in a conversation (chat, /v1, a client's conversation log, or a client recording
 * its own exchange through the turns endpoint), relayed by a model through the MCP {@code chat} tool, imported
 * afterwards from a ChatGPT or a Claude export, or restored from an archive. It sets the trust of the turn's history memory and of what is made from
 * the turn ({@link MemoryOrigin#ofTurn}).
 */
public enum TurnOrigin {
    LIVE,
    /** Relayed by a model through the MCP {@code chat} tool. */
    MCP,
    CHATGPT,
    CLAUDE,
    ARCHIVE;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static TurnOrigin fromWireName(String value) {
        return WireNames.parse(TurnOrigin.class, value, "origin");
    }

    @Override
    public String toString() {
        return wireName();
    }
}
