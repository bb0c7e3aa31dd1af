/**
 * The users a tenant's memory knows, with their counts.
 */
@ApplicationModule(allowedDependencies = {"common", "memory", "session", "tenant"})
package dev.memoir.user;

import org.springframework.modulith.ApplicationModule;
