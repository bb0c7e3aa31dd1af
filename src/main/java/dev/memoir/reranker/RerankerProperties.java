package dev.memoir.reranker;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

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
@ConfigurationProperties("memoir.reranker")
record RerankerProperties(@DefaultValue("20") int candidates, @DefaultValue("5") int topK,
        @DefaultValue("true") boolean learning, @DefaultValue("0.05") double learningRate,
        @DefaultValue("0.1") double temperature, @DefaultValue("8") int batchSize,
        @DefaultValue("0.9") double baselineMomentum, @DefaultValue("100") int statsWindow,
        @DefaultValue("256") int cachedTenants) {
}
