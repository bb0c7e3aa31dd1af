/**
 * What every feature shares and none owns: an OPEN module, so that its parts below are every feature's to use.
 * {@code web}: errors as ProblemDetail, the request filters, OpenAPI, the inspector page's serving, traces' hygiene;
 * {@code jdbc}: advisory locks, streaming reads, times and instants as PostgreSQL holds them, loose index scans;
 * {@code usage}: whom the model requests of a thread are for; {@code audit}: what the audit trail records and who
 * acts on a thread;
 * {@code wire}: how values look in the API (wire names of enums, safe and visible text, user ids, page cursors, clock
 * skew, every field's limit). Depends on no feature.
 */
@ApplicationModule(
        type = ApplicationModule.Type.OPEN,
        allowedDependencies = {})
package dev.memoir.common;

import org.springframework.modulith.ApplicationModule;
