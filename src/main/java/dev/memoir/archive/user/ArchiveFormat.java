package dev.memoir.archive.user;

import java.util.List;

import dev.memoir.common.wire.FieldConstraints;

/**
 * The user archive's NDJSON format, version 1: one JSON object per line, each with its {@code type}. A header
 * first, then the records in this order (each type may be absent), then an end line whose counts must match what
 * came before: an archive cut short is refused, not half-imported. docs/api.md#user-export-and-import.
 */
public final class ArchiveFormat {

    static final String HEADER = "memoir-user-archive";
    static final int VERSION = 1;
    static final String END = "end";

    /**
     * Characters of any text of an archive but a fact's (20,000, as {@code POST /memory} takes it) and a vector's.
     * The longest texts Memoir writes itself hold one chat message (32,000 characters) with a few words around it: a
     * history memory names its speaker, a conditional note its context. Twice a chat message leaves room for them.
     */
    static final int MAX_TEXT = 2 * FieldConstraints.CHAT_MESSAGE;

    /** The record types, in the order an archive holds them. */
    public static final List<String> ORDER =
            List.of("session", "turn", "memory", "revision", "passage", "episode", "feedback");

    private ArchiveFormat() {}
}
