/**
 * Deleting a user's data, or a session with everything derived from it alone.
 */
@ApplicationModule(allowedDependencies = {"common", "memory", "reranker", "session", "session::api", "tenant", "usage"})
package dev.memoir.erasure;

import org.springframework.modulith.ApplicationModule;
