/**
 * The users a tenant's memory knows, with their counts.
 */
@ApplicationModule(allowedDependencies = {"memory", "session", "tenant", "web"})
package dev.memoir.user;

import org.springframework.modulith.ApplicationModule;
