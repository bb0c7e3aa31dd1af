/**
 * The reply's memory as a product of its own: what {@code POST /chat} would place in the reply request, for a client
 * that calls its model itself (a gateway, an agent framework, Spring AI's ChatClient), with a trace that names each
 * entry by its number.
 */
@ApplicationModule(
        allowedDependencies = {
            "common",
            "jobs",
            "llm",
            "memory",
            "memory::api",
            "redaction",
            "retrieval",
            "session",
            "session::api",
            "tenant"
        })
package dev.memoir.context;

import org.springframework.modulith.ApplicationModule;
