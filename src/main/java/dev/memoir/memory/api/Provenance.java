package dev.memoir.memory.api;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "Where a memory came from: the session and the turns it was written from, its source and trust")
public record Provenance(
        @Schema(description = "Session the memory was written from; null for memories without one")
        UUID sessionId,

        @Schema(description = "Turns the memory rests on, in dialogue order")
        List<UUID> turnIds,

        @Schema(
                description = "user-turn, assistant-turn, import, client, mcp, feedback, archive, derived or "
                        + "unrecorded (written before sources were recorded; docs/trust.md)",
                example = "user-turn")
        MemorySource source,

        @Schema(
                description = "Which one: the API key (key:<id>) for client and mcp, the export (chatgpt, claude) "
                        + "for import, the kind for derived, the archived source for archive; absent "
                        + "otherwise",
                example = "chatgpt")
        String sourceDetail,

        @Schema(
                description = "low, medium or high: the user's live words and a client's REST writes high, the "
                        + "assistant's words, MCP writes and archives medium, imports low; a memory made from others "
                        + "the lowest of them. Searches and context requests can ask for a minimum (minTrust).",
                example = "high")
        Trust trust) {

    public Provenance(UUID sessionId, List<UUID> turnIds, MemoryOrigin origin) {
        this(sessionId, turnIds, origin.source(), origin.sourceDetail(), origin.trust());
    }
}
