package dev.memoir.context;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySource;
import dev.memoir.memory.api.Trust;

/**
 * The memory a reply request would carry, as {@code POST /chat} lays it out, for a client to put in its own system
 * message.
 */
@Schema(description = "The memory a reply request would carry, laid out within the token budget")
public record MemoryContext(
        @Schema(
                description = "The trace's id: GET /context/{id} names each entry by its number, "
                        + "POST /context/{id}/citations records which ones a reply cited")
        UUID id,

        String userId,

        @Schema(description = "The session whose settings were read; absent when none was given")
        UUID sessionId,

        @Schema(
                description = "The memory block, ready for a system message: the standing instructions first, then "
                        + "what is remembered, its [Memory] entries numbered (what citations name). It is what "
                        + "POST /chat places in the reply request for the same user, message and settings")
        String text,

        @Schema(description = "The text's tokens in the service's count (cl100k_base)", example = "1874")
        int tokens,

        @Schema(description = "The budget the text was laid out within", example = "2000")
        int tokenBudget,

        @Schema(description = "The numbered [Memory] entries, in their numbered order")
        List<Entry> entries,

        @Schema(
                description = "Memories the text holds outside the numbered entries: standing instructions, the "
                        + "recursive summary, memos")
        List<Pinned> pinned,

        @Schema(description = "Searches run: 1, plus one per self-reflection round that asked for keywords")
        int searches,

        @Schema(description = "The keywords self-reflection added to the query, in order")
        List<String> keywords) {

    /** One numbered entry of the [Memory] section. */
    public record Entry(
            @Schema(description = "Its number in the text", example = "1")
            int number,

            UUID id,
            @Schema(example = "history") MemoryKind kind,

            @Schema(description = "A memo's or topic memory's topic")
            String topic,

            @Schema(description = "When what it records began to be said")
            Instant occurredFrom,

            @Schema(description = "When what it records ended")
            Instant occurredTo,

            @Schema(description = "The session it was written from; absent for facts and corrections")
            UUID sessionId,

            @Schema(description = "The turns it rests on, in dialogue order")
            List<UUID> turnIds,

            @Schema(description = "What the text shows of it: a long memory by an excerpt (… marks what is left out)")
            String shown,

            @Schema(description = "Its cosine similarity to the query", example = "0.71")
            double score,

            @Schema(
                    description = "Where it came from: user-turn, assistant-turn, import, client, mcp, feedback, "
                            + "archive, derived or unrecorded (docs/trust.md)",
                    example = "user-turn")
            MemorySource source,

            @Schema(description = "How far it is trusted: low, medium or high", example = "high")
            Trust trust) {}

    /** A memory the text holds outside the numbered entries. */
    public record Pinned(
            UUID id,
            @Schema(example = "instruction") MemoryKind kind,
            @Schema(description = "A memo's topic") String topic,

            @Schema(description = "How far it is trusted: low, medium or high", example = "high")
            Trust trust) {}
}
