/**
 * A chat turn in a straight line: recall what the user's memory holds, answer (plainly, streamed or by reasoning
 * over memory), store the reply and record its outcome; {@code POST /chat}, the OpenAI-compatible {@code
 * /v1/chat/completions}.
 */
@ApplicationModule(
        allowedDependencies = {"common", "feedback", "llm", "memory", "redaction", "retrieval", "session", "tenant"})
package dev.memoir.chat;

import org.springframework.modulith.ApplicationModule;
