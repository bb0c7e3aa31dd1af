/**
 * What a turn recalls: self-reflective retrieval, memo selection, the reranker's ordering and R^3's reasoning over
 * memory, and the memory a reply request carries.
 * <p>{@link dev.memoir.retrieval.ReplyMemory} is the one seam through which a reply's memory is built (for
 * {@code POST /chat} and {@code POST /context} alike): one retriever, one self-reflection loop, one fusion and one
 * reranker entry, then the session's selection lays it out ({@code budget}: {@link
 * dev.memoir.retrieval.BudgetedReplyContext}; {@code per-kind}: {@link dev.memoir.retrieval.PerKindReplyContext}).
 * <p>Inside, {@code layout} lays the recalled memories out within the token budget: the standing instructions first,
 * excerpts of long memories, openings spread over the dialogue for order and overview questions, near-duplicates
 * counted once, grouped by session and date.
 */
@ApplicationModule(
        allowedDependencies = {"common", "llm", "memory", "memory::api", "reranker", "session", "session::api", "tenant"
        })
package dev.memoir.retrieval;

import org.springframework.modulith.ApplicationModule;
