package dev.memoir.reranker;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(
        description = "How the tenant's reranker did over time: the recent reranked replies grouped by the "
                + "reranker version that served them, oldest first")
record RerankerHistory(
        @Schema(description = "Reranked replies covered (the most recent, at most the limit asked for)")
        int replies,

        List<Period> items) {

    @Schema(description = "The replies one reranker version served")
    record Period(
            @Schema(description = "The reranker version that served them (0: never trained)")
            long version,

            @Schema(description = "Reranked replies it served")
            int replies,

            @Schema(description = "Mean reward per shown memory: +1 cited, -1 not cited")
            double averageReward,

            @Schema(
                    description = "Share of the cited memories that this version's scores put in its top K; "
                            + "null when no reply cited a memory")
            Double citedInTopK,

            @Schema(
                    description = "Share of the cited memories that plain retrieval order put in the top K, "
                            + "for comparison; null when no reply cited a memory")
            Double retrievalCitedInTopK,

            @Schema(description = "The first of these replies")
            Instant from,

            @Schema(description = "The last of these replies")
            Instant to) {}
}
