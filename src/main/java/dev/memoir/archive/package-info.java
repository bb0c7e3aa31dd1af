/**
 * A user's whole memory as a portable archive: {@code GET /users/{userId}/export} streams it as versioned NDJSON,
 * {@code POST /users/{userId}/import} restores it under any tenant and user id, whole or not at all ({@code user});
 * and an assistant's data export (ChatGPT, Claude) imported as closed sessions ({@code dataexport}). The top is
 * {@link dev.memoir.archive.UserArchives} and the values it answers; the two sub-packages are internal.
 */
@ApplicationModule(allowedDependencies = {"common", "feedback", "memory", "session", "tenant"})
package dev.memoir.archive;

import org.springframework.modulith.ApplicationModule;
