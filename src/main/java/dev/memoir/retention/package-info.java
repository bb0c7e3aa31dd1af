/**
 * Expiry and retention: a recurring job deletes expired memories and those older than their kind's retention
 * (per deployment, overridable per tenant by the operator), completely, as erasure does;
 * {@code /admin/tenants/{id}/retention}.
 */
@ApplicationModule(allowedDependencies = {"common", "jobs", "memory", "memory::api", "tenant"})
package dev.memoir.retention;

import org.springframework.modulith.ApplicationModule;
