package dev.memoir.memory.api;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.audit.AuditActor;

/**
 * Where a memory came from and how far it is trusted (docs/trust.md, "Source and trust").
 *
 * @param detail which one of its source: the key ({@code key:<id>}) for client and MCP, the export for an import
 *               ({@code chatgpt}, {@code claude}), the kind for a derived memory, the archived source
 *               for a restored one; null where the source says all
 */
@Schema(description = "Where a memory came from, and how far its words are trusted")
public record MemoryOrigin(
        @Schema(
                description = "user-turn, assistant-turn, import, client, mcp, feedback, archive, derived or "
                        + "unrecorded (written before sources were recorded)",
                example = "user-turn")
        MemorySource source,

        @Schema(
                description = "Which one: the API key for client and mcp, the export (chatgpt, claude) for "
                        + "import, the kind for derived, the archived source for archive; absent otherwise",
                example = "key:6f1c7a52-6f0e-4a4e-9a55-2f3c1d2e4b10")
        String sourceDetail,

        @Schema(
                description = "low, medium or high: the user's live words and a client's REST writes high, the "
                        + "assistant's words, MCP writes and archives medium, imports low; a memory made from others "
                        + "the lowest of them",
                example = "high")
        Trust trust) {

    /** What a client states through the REST API, under its key. */
    public static MemoryOrigin client() {
        return new MemoryOrigin(MemorySource.CLIENT, AuditActor.current(), Trust.HIGH);
    }

    /** What a model writes through an MCP tool, under the key of the client that connected it. */
    public static MemoryOrigin mcp() {
        return new MemoryOrigin(MemorySource.MCP, AuditActor.current(), Trust.MEDIUM);
    }

    /** What the feedback step learns from the user's own correction (and no more than the turns it rests on). */
    public static MemoryOrigin feedback() {
        return new MemoryOrigin(MemorySource.FEEDBACK, null, Trust.HIGH);
    }

    /** What a job makes from turns: trusted as the least of them, which the store looks up. */
    public static MemoryOrigin derived(MemoryKind kind, Trust fromTurns) {
        return new MemoryOrigin(MemorySource.DERIVED, kind.wireName(), fromTurns);
    }

    /** What a turn's words are worth, by who said them and how the turn reached Memoir. */
    public static MemoryOrigin ofTurn(boolean userSpoke, TurnOrigin origin) {
        return switch (origin) {
            case LIVE ->
                userSpoke
                        ? new MemoryOrigin(MemorySource.USER_TURN, null, Trust.HIGH)
                        : new MemoryOrigin(MemorySource.ASSISTANT_TURN, null, Trust.MEDIUM);
            case MCP ->
                new MemoryOrigin(userSpoke ? MemorySource.USER_TURN : MemorySource.ASSISTANT_TURN, "mcp", Trust.MEDIUM);
            case CHATGPT, CLAUDE -> new MemoryOrigin(MemorySource.IMPORT, origin.wireName(), Trust.LOW);
            case ARCHIVE -> new MemoryOrigin(MemorySource.ARCHIVE, null, Trust.MEDIUM);
        };
    }

    /**
     * A memory restored from an archive: the file can claim anything, so it is trusted no more than medium and its
     * source is the archive, with the archived source kept as the detail.
     */
    public static MemoryOrigin restored(MemorySource archived, Trust archivedTrust) {
        return new MemoryOrigin(
                MemorySource.ARCHIVE,
                archived == null ? null : archived.wireName(),
                Trust.MEDIUM.atMost(archivedTrust));
    }

    /** The same origin, trusted no more than {@code other}. */
    public MemoryOrigin atMost(Trust other) {
        return new MemoryOrigin(source, sourceDetail, trust.atMost(other));
    }
}
