package dev.memoir.llm;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param provider         {@code in-process} runs the model inside the service (no network needed);
 *                         {@code openai} uses Spring AI's OpenAI embedding model (also set
 *                         {@code spring.ai.model.embedding=openai})
 * @param model            the model: in-process {@code bge-small-en-v1.5} (default) or {@code all-minilm-l6-v2};
 *                         with {@code openai}, the OpenAI model's name. Every memory records the model that
 *                         embedded it, and a background job re-embeds memories of any other model.
 * @param queryInstruction text put before a search query (not before stored memories); unset, the model's own:
 *                         bge-small-en-v1.5 was trained with a retrieval instruction, the others use none
 * @param dimensions       the vector size stored in PostgreSQL; must match the model (384 for both in-process
 *                         models) and is fixed when the database is first migrated
 * @param reembedBatchSize memories re-embedded per transaction by the re-embedding job
 * @param queryCacheSize   search queries whose embeddings are kept (least recently used out), 0 for none: a
 *                         chat turn embeds its message for several searches, and the in-process model costs
 *                         more than the search itself for a small user's memory
 */
@Validated
@ConfigurationProperties("memoir.embedding")
public record EmbeddingProperties(
        @DefaultValue("in-process") @NotBlank String provider,
        @DefaultValue(InProcessEmbeddingModel.BGE_SMALL) @NotBlank String model,
        String queryInstruction,
        @DefaultValue("384") @Min(1) int dimensions,
        @DefaultValue("256") @Min(1) int reembedBatchSize,
        @DefaultValue("1024") @Min(0) int queryCacheSize) {

    /** The instruction actually used for queries. */
    String effectiveQueryInstruction() {
        if (queryInstruction != null) {
            return queryInstruction;
        }
        return InProcessEmbeddingModel.BGE_SMALL.equals(model)
                ? "Represent this sentence for searching relevant passages: " : "";
    }
}
