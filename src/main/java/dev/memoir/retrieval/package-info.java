/**
 * What a turn recalls: self-reflective retrieval, memo selection, the reranker's ordering and R^3's reasoning over
 * memory.
 */
@ApplicationModule(allowedDependencies = {"llm", "memory", "reranker", "session", "tenant"})
package dev.memoir.retrieval;

import org.springframework.modulith.ApplicationModule;
