package dev.memoir.llm;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.memoir.common.web.Observed;

@Configuration(proxyBeanMethods = false)
class EmbeddingConfig {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingConfig.class);

    @Bean
    @ConditionalOnProperty(name = "memoir.embedding.provider", havingValue = "in-process", matchIfMissing = true)
    EmbeddingModel inProcessEmbeddingModel(EmbeddingProperties properties) {
        InProcessEmbeddingModel model = new InProcessEmbeddingModel(properties.model(), properties.effectiveThreads());
        if (properties.dimensions() != model.dimensions()) {
            throw new IllegalStateException("memoir.embedding.dimensions is " + properties.dimensions()
                    + " but the in-process model produces " + model.dimensions() + "-dimensional vectors");
        }
        return model;
    }

    @Bean
    TextEmbedder textEmbedder(
            EmbeddingModel model,
            EmbeddingProperties properties,
            TokenCounter tokens,
            Observed observations,
            List<ModelUsageListener> usageListeners) {
        int passageTokens = properties.passageTokens();
        int overlap = properties.passageOverlap();
        // Passages are measured in the chat model's tokens; the embedding model's own run about a quarter more.
        if (model instanceof InProcessEmbeddingModel inProcess && passageTokens > inProcess.maxTokens() * 3 / 4) {
            passageTokens = inProcess.maxTokens() * 3 / 4;
            overlap = Math.min(overlap, passageTokens / 8);
            log.info(
                    "memoir.embedding.passage-tokens {} is more than {} reads: passages of {} tokens, {} repeated",
                    properties.passageTokens(),
                    properties.model(),
                    passageTokens,
                    overlap);
        }
        return new TextEmbedder(
                model,
                properties.model(),
                properties.effectiveQueryInstruction(),
                properties.queryCacheSize(),
                new PassageSplitter(tokens, passageTokens, overlap),
                observations,
                new UsageTeller(usageListeners, tokens));
    }

    /**
     * The migrations size the vector columns by {@code memoir.embedding.dimensions}: handed to Flyway from the
     * bound settings, so that the default lives in {@link EmbeddingProperties} alone.
     */
    @Bean
    FlywayConfigurationCustomizer embeddingDimensionsPlaceholder(EmbeddingProperties properties) {
        return configuration -> {
            Map<String, String> placeholders = new HashMap<>(configuration.getPlaceholders());
            placeholders.put("embeddingDimensions", Integer.toString(properties.dimensions()));
            configuration.placeholders(placeholders);
        };
    }
}
