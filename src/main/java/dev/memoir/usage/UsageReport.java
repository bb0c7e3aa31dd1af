package dev.memoir.usage;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

/** Model usage over a range, in total and per group, each group as a series of hours or days. */
@Schema(description = "Model usage over a range: in total, and per group as a series of hours or days")
public record UsageReport(
        @Schema(description = "Start of the range (inclusive), at the start of an hour")
        Instant from,

        @Schema(description = "End of the range (exclusive), at the start of an hour")
        Instant to,

        UsageInterval interval,
        UsageGrouping groupBy,

        @Schema(description = "The currency of every estimatedCost (memoir.usage.currency)")
        String currency,

        @Schema(description = "What estimatedCost is") String costNote,
        Totals total,

        @Schema(description = "One per value of groupBy, the largest prompt and completion tokens first")
        List<Group> groups,

        @Schema(description = "Models used in the range that have no price: their tokens are in no estimatedCost")
        List<String> unpricedModels) {

    static final String COST_NOTE = "An estimate: tokens times the operator's price per model (memoir.usage.prices), "
            + "not a bill. Models without a price are left out of it (unpricedModels).";

    /** Requests and tokens of a group, an interval or the whole range. */
    @Schema(description = "Requests and tokens")
    public record Totals(
            @Schema(description = "Requests to a model: chat-completions attempts and embedding batches")
            long requests,

            @Schema(description = "Requests that failed (they count no tokens)")
            long failedRequests,

            long promptTokens,
            long completionTokens,

            @Schema(
                    description = "Requests whose tokens Memoir counted itself, the server having reported "
                            + "none (every in-process embedding)")
            long countedByService,

            @Schema(
                    description = "Estimated cost in currency, of the priced models only; absent when none "
                            + "of the models used has a price")
            BigDecimal estimatedCost) {}

    /** One group's usage: its total and its series. */
    public record Group(
            @Schema(
                    description = "The group's value: a step, user id (empty: a tenant's work of no one user), "
                            + "model, kind or tenant id")
            String key,

            Totals total,

            @Schema(description = "Each hour or day of the range that has usage, oldest first")
            List<Point> series) {}

    /** One hour's or day's usage. */
    public record Point(
            @Schema(description = "Start of the hour or day (UTC)")
            Instant start,

            Totals usage) {}
}
