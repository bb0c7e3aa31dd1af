/**
 * Memory writers run after turns and at a session's close: conditional notes, session summaries, memos, the
 * recursive summary, topic memories.
 */
@ApplicationModule(allowedDependencies = {"jobs", "llm", "memory", "session", "tenant", "common"})
package dev.memoir.writing;

import org.springframework.modulith.ApplicationModule;
