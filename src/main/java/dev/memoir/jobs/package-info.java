/**
 * Durable background jobs on db-scheduler, and the record of their runs that sessions show.
 */
@ApplicationModule(allowedDependencies = {"common", "tenant"})
package dev.memoir.jobs;

import org.springframework.modulith.ApplicationModule;
