/**
 * A user's whole memory as a portable archive: {@code GET /users/{userId}/export} streams it as versioned NDJSON,
 * {@code POST /users/{userId}/import} restores it under any tenant and user id, whole or not at all.
 */
@ApplicationModule(allowedDependencies = {"common", "feedback", "memory", "session", "tenant"})
package dev.memoir.archive;

import org.springframework.modulith.ApplicationModule;
