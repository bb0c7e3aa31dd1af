package dev.memoir.llm;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
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
 *                         with {@code openai}, the name of the model {@code spring.ai.openai.embedding.options.model}
 *                         chooses (this only names it). Every memory records the model that embedded it, and a
 *                         background job re-embeds memories of any other model.
 * @param queryInstruction text put before a search query (not before stored memories); unset, the model's own:
 *                         bge-small-en-v1.5 was trained with a retrieval instruction, the others use none
 * @param dimensions       the vector size stored in PostgreSQL; must match the model (384 for both in-process
 *                         models) and is fixed when the database is first migrated
 * @param reembedBatchSize memories re-embedded per transaction by the re-embedding job
 * @param queryCacheSize   search queries whose embeddings are kept (least recently used out), 0 for none: a
 *                         chat turn embeds its message for several searches, and the in-process model costs
 *                         more than the search itself for a small user's memory
 * @param passageTokens    a memory longer than this many tokens is also embedded in passages of at most this size,
 *                         and dense search scores it by its best passage, so that what a long turn says at its end
 *                         is found as well as what it says first; 0 embeds every memory whole, in one vector
 * @param passageOverlap   tokens each passage repeats of the one before it
 * @param threads          in-process model: threads embedding the texts of one write side by side (an import's
 *                         turns, say), each text on one thread; 0 (default) for one per processor
 */
@Validated
@ConfigurationProperties("memoir.embedding")
public record EmbeddingProperties(
        @DefaultValue("in-process") @NotBlank String provider,

        @DefaultValue(InProcessEmbeddingModel.BGE_SMALL) @NotBlank
        String model,

        String queryInstruction,
        @DefaultValue("384") @Min(1) int dimensions,
        @DefaultValue("256") @Min(1) int reembedBatchSize,
        @DefaultValue("1024") @Min(0) int queryCacheSize,
        @DefaultValue("256") @Min(0) @Max(2000) int passageTokens,
        @DefaultValue("32") @Min(0) int passageOverlap,
        @DefaultValue("0") @Min(0) @Max(256) int threads) {

    /** An overlap is part of a passage: it must leave the passage room to move on. */
    @AssertTrue(message = "memoir.embedding.passage-overlap must be less than half of passage-tokens")
    boolean isOverlapWithinPassage() {
        return passageTokens == 0 || passageOverlap * 2 < passageTokens;
    }

    /** The in-process model's embedding threads actually used. */
    int effectiveThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }

    /** The instruction actually used for queries. */
    String effectiveQueryInstruction() {
        if (queryInstruction != null) {
            return queryInstruction;
        }
        return InProcessEmbeddingModel.BGE_SMALL.equals(model)
                ? "Represent this sentence for searching relevant passages: "
                : "";
    }
}
