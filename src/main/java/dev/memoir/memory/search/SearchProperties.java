package dev.memoir.memory.search;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.memoir.memory.api.SearchMode;

/**
 * How memory search ranks. Both rankings run in PostgreSQL in one statement and are fused by reciprocal rank:
 * score = denseWeight / (rrfK + dense rank) + lexicalWeight × coverage / (rrfK + lexical rank), where coverage is
 * the share of the query words' rarity that the memory holds ({@link Fusion#COVERAGE_WEIGHTED}, the default) or 1
 * ({@link Fusion#RRF}).
 *
 * @param mode                 the rankings used when a caller does not choose: hybrid, dense or lexical
 * @param rrfK                 the fusion constant: larger flattens the advantage of the first ranks
 * @param denseWeight          weight of the dense (embedding) ranking in the fusion
 * @param lexicalWeight        weight of the full-text ranking in the fusion
 * @param candidates           how many candidates each ranking contributes before fusion (at least the limit)
 * @param lexicalRanking       {@code rarity} (the query words a memory holds, each weighted by how rare it is among
 *                             the user's memories, as BM25 weighs words), or PostgreSQL's {@code ts_rank} (word
 *                             frequency) or {@code ts_rank_cd} (cover density), which know no word rarity
 * @param lexicalNormalization PostgreSQL's rank normalisation bit mask (0 = none, 1 = divide by 1 + log length,
 *                             2 = divide by length, 32 = rank / (rank + 1)); length normalisation can hurt short
 *                             dialogue turns
 * @param raritySample         how many of the user's memories the word rarities are counted in: all of them for
 *                             users with fewer, the newest this many for larger ones, so that the cost stays
 *                             bounded
 * @param efSearchFactor       the HNSW index is searched with ef_search = candidates × this factor, so that a
 *                             filtered scan finds enough of one user's memories
 * @param fusion               whether a lexical rank counts in full ({@code rrf}) or in proportion to how much of
 *                             the query's word rarity the memory holds ({@code coverage-weighted}, rarity ranking
 *                             only): with plain reciprocal rank fusion, a memory that shares only a common word with
 *                             the question got a lexical rank and pushed down what the embedding found
 * @param recencyWeight        weight of a ranking of the fused candidates by when their dialogue began, newest first
 *                             (0, the default, leaves it out: measured on the retrieval benchmark's update questions,
 *                             docs/benchmarks.md#supersession)
 * @param periodWeight         weight of the third ranking of a hybrid search whose query names a month with its year:
 *                             the memories whose dialogue began in that period, nearest first; 0 turns it off
 */
@Validated
@ConfigurationProperties("memoir.search")
public record SearchProperties(
        @DefaultValue("hybrid") @NotNull SearchMode mode,
        @DefaultValue("20") @Min(1) @Max(10_000) int rrfK,
        @DefaultValue("1.0") @DecimalMin("0.0") double denseWeight,
        @DefaultValue("1.0") @DecimalMin("0.0") double lexicalWeight,
        @DefaultValue("100") @Min(1) @Max(1000) int candidates,
        @DefaultValue("rarity") @NotNull LexicalRanking lexicalRanking,
        @DefaultValue("0") @Min(0) @Max(63) int lexicalNormalization,
        @DefaultValue("4") @Min(1) @Max(10) int efSearchFactor,
        @DefaultValue("2000") @Min(100) @Max(100_000) int raritySample,
        @DefaultValue("coverage-weighted") @NotNull Fusion fusion,
        @DefaultValue("1.0") @DecimalMin("0.0") double periodWeight,
        @DefaultValue("0.0") @DecimalMin("0.0") double recencyWeight) {

    /** How the two rankings are fused. */
    public enum Fusion {
        /** Reciprocal rank fusion of both rankings. */
        RRF,
        /**
         * Reciprocal rank fusion in which a lexical rank counts in proportion to the share of the query words' rarity
         * that the memory holds (rarity ranking only): a memory matching only common query words weighs little.
         */
        COVERAGE_WEIGHTED
    }

    /** How the lexical side ranks; RARITY breaks its ties with ts_rank. */
    public enum LexicalRanking {
        RARITY("ts_rank"),
        TS_RANK("ts_rank"),
        TS_RANK_CD("ts_rank_cd");

        private final String function;

        LexicalRanking(String function) {
            this.function = function;
        }

        String function() {
            return function;
        }
    }
}
