/**
 * Memory records of every kind: storage, hybrid search, revisions, re-embedding; {@code /memory}.
 */
@ApplicationModule(allowedDependencies = {"jobs", "llm", "tenant", "web"})
package dev.memoir.memory;

import org.springframework.modulith.ApplicationModule;
