/**
 * What the models cost each tenant: every chat-model request and embedding batch recorded with whom it was for
 * (tenant, user, session) and its step, kept per call for a while and per hour for good; read by the tenant
 * ({@code GET /usage}, the MCP tool {@code get_usage}) and by the operator ({@code GET /admin/usage}), with an
 * estimated cost from the operator's prices per model.
 */
@ApplicationModule(allowedDependencies = {"common", "jobs", "llm", "tenant"})
package dev.memoir.usage;

import org.springframework.modulith.ApplicationModule;
