/**
 * Memory writers run after turns and at a session's close: conditional notes, session summaries, memos, the
 * recursive summary, topic memories.
 */
@ApplicationModule(
        allowedDependencies = {"common", "jobs", "llm", "memory", "memory::api", "session", "session::api", "tenant"})
package dev.memoir.writing;

import org.springframework.modulith.ApplicationModule;
