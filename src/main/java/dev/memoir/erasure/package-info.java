/**
 * Deleting a user's data, or a session with everything derived from it alone.
 */
@ApplicationModule(allowedDependencies = {"memory", "reranker", "session", "tenant", "common"})
package dev.memoir.erasure;

import org.springframework.modulith.ApplicationModule;
