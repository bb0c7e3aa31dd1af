package dev.memoir.archive;

import java.util.List;

/**
 * The user archive's NDJSON format, version 1: one JSON object per line, each with its {@code type}. A header
 * first, then the records in this order (each type may be absent), then an end line whose counts must match what
 * came before: an archive cut short is refused, not half-imported. docs/api.md#user-export-and-import.
 */
final class ArchiveFormat {

    static final String HEADER = "memoir-user-archive";
    static final int VERSION = 1;
    static final String END = "end";

    /** The record types, in the order an archive holds them. */
    static final List<String> ORDER = List.of("session", "turn", "memory", "revision", "passage", "episode",
            "feedback");

    private ArchiveFormat() {
    }
}
