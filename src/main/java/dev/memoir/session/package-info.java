/**
 * Sessions and their turns, and the events that start memory writing.
 */
@ApplicationModule(allowedDependencies = {"jobs", "memory", "tenant", "web"})
package dev.memoir.session;

import org.springframework.modulith.ApplicationModule;
