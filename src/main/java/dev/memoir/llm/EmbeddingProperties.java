package dev.memoir.llm;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param provider   {@code in-process} runs all-MiniLM-L6-v2 inside the service (no network needed);
 *                   {@code openai} uses Spring AI's OpenAI embedding model (also set
 *                   {@code spring.ai.model.embedding=openai})
 * @param dimensions the vector size stored in PostgreSQL; must match the model (384 for all-MiniLM-L6-v2) and
 *                   is fixed when the database is first migrated
 */
@ConfigurationProperties("memoir.embedding")
record EmbeddingProperties(@DefaultValue("in-process") String provider, @DefaultValue("384") int dimensions) {
}
