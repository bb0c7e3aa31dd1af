/**
 * A user's whole memory as a portable archive: {@code GET /users/{userId}/export} streams it as versioned NDJSON,
 * {@code POST /users/{userId}/import} restores it under any tenant and user id, whole or not at all.
 */
@ApplicationModule(allowedDependencies = {"feedback", "memory", "session", "tenant", "common"})
package dev.memoir.archive;

import org.springframework.modulith.ApplicationModule;
