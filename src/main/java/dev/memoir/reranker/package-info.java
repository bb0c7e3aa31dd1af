/**
 * RMM's retrospective reflection (see docs/papers.md): a reranker of recalled memories that learns from which ones
 * replies cite.
 */
@ApplicationModule(allowedDependencies = {"common", "jobs", "memory", "memory::api", "tenant"})
package dev.memoir.reranker;

import org.springframework.modulith.ApplicationModule;
