package dev.memoir.memory;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

/** Why a memory ranked where it did: its place and score in each ranking, and the fused score that ordered it. */
@Schema(description = "How a search result was ranked: each ranking's rank (from 1) and score, and the fused score")
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SearchExplanation(
        @Schema(description = "Rank among the dense candidates; null when outside them") Integer denseRank,
        @Schema(description = "Cosine similarity of the embeddings; null when outside the dense candidates")
        Double denseScore,
        @Schema(description = "Rank among the full-text matches; null when no query word matched")
        Integer lexicalRank,
        @Schema(description = "PostgreSQL full-text rank; null when no query word matched") Double lexicalScore,
        @Schema(description = "Reciprocal-rank fusion of both: sum of weight / (k + rank)") double fusedScore) {
}
