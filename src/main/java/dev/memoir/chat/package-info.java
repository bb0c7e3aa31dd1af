/**
 * A chat turn in a straight line: recall what the user's memory holds, answer (plainly, streamed or by reasoning
 * over memory), store the reply and record its outcome; {@code POST /chat}, the OpenAI-compatible {@code
 * /v1/chat/completions}. The turn is {@code turn}'s, the OpenAI dialect {@code openai}'s; the top offers
 * {@link dev.memoir.chat.MemoryChat}.
 */
@ApplicationModule(
        allowedDependencies = {
            "common",
            "feedback",
            "llm",
            "memory",
            "memory::api",
            "redaction",
            "retrieval",
            "session",
            "session::api",
            "tenant"
        })
package dev.memoir.chat;

import org.springframework.modulith.ApplicationModule;
