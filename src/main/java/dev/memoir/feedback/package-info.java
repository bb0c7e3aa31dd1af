/**
 * Learning from the user's feedback (RAM, see docs/papers.md): feedback on replies, episodes of trials, the lessons
 * they write into memory, and the traces of what each reply was shown.
 */
@ApplicationModule(
        allowedDependencies = {
            "common",
            "llm",
            "memory",
            "memory::api",
            "redaction",
            "reranker",
            "retrieval",
            "session",
            "session::api",
            "tenant"
        })
package dev.memoir.feedback;

import org.springframework.modulith.ApplicationModule;
