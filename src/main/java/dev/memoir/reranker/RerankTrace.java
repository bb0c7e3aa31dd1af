package dev.memoir.reranker;

import java.util.List;
import java.util.UUID;

/**
 * How the reranker ranked one reply's candidates: kept until the reply's citations are known, then stored as
 * feedback.
 *
 * @param candidateIds the candidates in retrieval order
 * @param scores       the reranker's score of each candidate
 * @param shownIds     the memories passed on to the reply, in order
 */
public record RerankTrace(
        float[] query, List<UUID> candidateIds, double[] scores, List<UUID> shownIds, long modelVersion) {}
