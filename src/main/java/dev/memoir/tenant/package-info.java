/**
 * Tenants, their API keys, authentication and per-tenant limits.
 */
@ApplicationModule(allowedDependencies = {"common"})
package dev.memoir.tenant;

import org.springframework.modulith.ApplicationModule;
