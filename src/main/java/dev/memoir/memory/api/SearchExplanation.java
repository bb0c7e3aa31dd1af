package dev.memoir.memory.api;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Why a memory ranked where it did: its place and score in each ranking, and the fused score that ordered it. */
@Schema(description = "How a search result was ranked: each ranking's rank (from 1) and score, and the fused score")
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SearchExplanation(
        @Schema(description = "Rank among the dense candidates; null when outside them")
        Integer denseRank,

        @Schema(description = "Cosine similarity of the embeddings; null when outside the dense candidates")
        Double denseScore,

        @Schema(
                description = "The passage of a long memory whose embedding was nearest to the query; null when "
                        + "the memory's own embedding was, or outside the dense candidates")
        Passage densePassage,

        @Schema(description = "Rank among the full-text matches; null when no query word matched")
        Integer lexicalRank,

        @Schema(
                description = "Full-text score: with the default rarity ranking, the summed rarity of the query "
                        + "words the memory holds; null when no query word matched")
        Double lexicalScore,

        @Schema(
                description = "Share of the query words' summed rarity that the memory holds, from 0 to 1 (1 when "
                        + "it holds every query word); it scales the lexical rank's part of the fused score. 1 when the "
                        + "fusion does not weigh coverage; null when no query word matched")
        Double lexicalCoverage,

        @Schema(
                description = "Rank among the memories whose dialogue began in the months the query names with "
                        + "their year (\"in October 2022\"), nearest first; null when the query names none, or the memory "
                        + "is outside them")
        Integer periodRank,

        @Schema(
                description = "Rank among the candidates by when their dialogue began, newest first; null unless "
                        + "memoir.search.recency-weight is above 0")
        Integer recencyRank,

        @Schema(
                description = "Reciprocal-rank fusion of the rankings: dense weight / (k + dense rank) + lexical "
                        + "weight × lexical coverage / (k + lexical rank) + period weight / (k + period rank) + recency weight / (k + "
                        + "recency rank)")
        double fusedScore) {

    @Schema(
            description = "A passage of a long memory: its position (from 1) and the characters of the memory's "
                    + "text it covers")
    public record Passage(
            int position,

            @Schema(description = "Index of its first character in the memory's text")
            int start,

            @Schema(description = "Index after its last character")
            int end) {}
}
