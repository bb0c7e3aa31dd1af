package dev.memoir.context;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.memory.api.Trust;

/** What a context request was shown, entry by entry, and what a reply cited of it. */
@Schema(description = "What a context request was shown, by memory id, and what a reply built on it cited")
public record ContextTraceView(
        UUID id,
        String userId,

        @Schema(description = "The session whose settings were read; absent when none was given")
        UUID sessionId,

        Instant createdAt,

        @Schema(description = "The numbered entries, in their numbered order")
        List<Entry> entries,

        @Schema(description = "Memories held outside the numbered entries (instructions, recursive summary, memos)")
        List<UUID> pinned,

        @Schema(
                description = "The least trust the request read with (its minTrust or its settings'); null for any",
                example = "medium")
        Trust minTrust) {

    /** One numbered entry: the memory behind it, its score and trust then, and whether a reply cited it. */
    public record Entry(
            int number,
            UUID memoryId,
            double score,
            boolean cited,

            @Schema(
                    description = "How far it was trusted when shown (docs/trust.md); null for traces "
                            + "from before trust was recorded",
                    example = "high")
            Trust trust) {}

    static ContextTraceView of(ContextTrace trace) {
        List<UUID> ids = trace.getEntryIds();
        double[] scores = trace.getScores();
        List<UUID> cited = trace.getCitedIds();
        List<String> trust = trace.getEntryTrust();
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            entries.add(new Entry(
                    i + 1,
                    ids.get(i),
                    i < scores.length ? scores[i] : 0,
                    cited.contains(ids.get(i)),
                    i < trust.size() && trust.get(i) != null ? Trust.fromWireName(trust.get(i)) : null));
        }
        return new ContextTraceView(
                trace.getId(),
                trace.getUserId(),
                trace.getSessionId(),
                trace.getCreatedAt(),
                entries,
                trace.getPinnedIds(),
                trace.getMinTrust() == null ? null : Trust.fromWireName(trace.getMinTrust()));
    }
}
