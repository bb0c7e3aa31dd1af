package dev.memoir.archive.api;

import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What an import stored")
public record ImportedUser(
        @Schema(example = "alice") String userId,

        @Schema(
                description =
                        "Records stored, by type: session, turn, memory, revision, passage, episode, " + "feedback")
        Map<String, Long> counts,

        @Schema(
                description =
                        "Memories embedded again because the archive's vectors came from another " + "embedding model")
        int reembedded) {}
