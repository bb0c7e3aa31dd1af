package dev.memoir.reranker;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "The calling tenant's learned reranker")
record RerankerStatus(
        @Schema(description = "Increases with every update and reset; 0 for a reranker never trained")
        long version,

        @Schema(description = "REINFORCE updates since the last reset")
        int updates,

        @Schema(description = "Replies stored as feedback") long feedback,

        @Schema(description = "Feedback not yet learned from")
        long pendingFeedback,

        @Schema(description = "Replies the figures below cover (the most recent)")
        int window,

        @Schema(
                description = "Mean reward per shown memory over the window: +1 cited, -1 not cited; null "
                        + "without feedback")
        Double averageReward,

        @Schema(description = "Share of cited memories that plain retrieval order puts in the top K")
        Double citedRecallBefore,

        @Schema(description = "Share of cited memories that the current reranker puts in its top K")
        Double citedRecallAfter,

        Instant updatedAt) {}
