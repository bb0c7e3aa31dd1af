/**
 * A user's whole memory as a portable archive: {@code GET /users/{userId}/export} streams it as versioned NDJSON,
 * {@code POST /users/{userId}/import} restores it under any tenant and user id, whole or not at all ({@code user});
 * and an assistant's data export (ChatGPT, Claude) imported as closed sessions ({@code dataexport}). The top is
 * {@link dev.memoir.archive.UserArchives}; the values it answers and the event it publishes are in {@code api} (the
 * named interface {@code archive::api}), which the inside uses too; the two other sub-packages are internal.
 */
@ApplicationModule(
        allowedDependencies = {"common", "feedback", "memory", "memory::api", "session", "session::api", "tenant"})
package dev.memoir.archive;

import org.springframework.modulith.ApplicationModule;
