/**
 * The users a tenant's memory knows, with their counts.
 */
@ApplicationModule(allowedDependencies = {"memory", "session", "tenant", "common"})
package dev.memoir.user;

import org.springframework.modulith.ApplicationModule;
