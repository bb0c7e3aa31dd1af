package dev.memoir.reranker;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The learned reranker ({@code memoir.reranker.*}), used by sessions whose memory settings rerank.
 *
 * @param candidates       memories retrieval hands to the reranker
 * @param topK             memories the reranker passes on to the reply
 * @param learning         sample the shown memories by Gumbel top-K and learn from citations; off, the
 *                         reranker serves its plain top K and stops learning
 * @param learningRate     REINFORCE step size
 * @param temperature      softmax temperature of the ranking policy
 * @param batchSize        replies per update
 * @param baselineMomentum how slowly the reward baseline follows the mean reward (0 keeps it at 0)
 * @param statsWindow      recent replies the reflection endpoint reports on
 * @param cachedTenants    tenants whose decoded weights are kept in memory (about 1.2 MB each at 384 dimensions)
 */
@Validated
@ConfigurationProperties("memoir.reranker")
record RerankerProperties(
        @DefaultValue("20") @Min(1) int candidates,
        @DefaultValue("5") @Min(1) int topK,
        @DefaultValue("true") boolean learning,

        @DefaultValue("0.05") @DecimalMin(value = "0.0", inclusive = false)
        double learningRate,

        @DefaultValue("0.1") @DecimalMin(value = "0.0", inclusive = false)
        double temperature,

        @DefaultValue("8") @Min(1) int batchSize,

        @DefaultValue("0.9") @DecimalMin("0.0") @DecimalMax("1.0")
        double baselineMomentum,

        @DefaultValue("100") @Min(1) int statsWindow,
        @DefaultValue("256") @Min(1) int cachedTenants) {}
