/**
 * Tenants, their API keys, authentication and per-tenant limits.
 */
@ApplicationModule(allowedDependencies = {"web"})
package dev.memoir.tenant;

import org.springframework.modulith.ApplicationModule;
