/**
 * What every feature's web layer shares: errors as ProblemDetail, cursors, request limits, OpenAPI. Depends on no
 * feature.
 */
@ApplicationModule(allowedDependencies = {})
package dev.memoir.web;

import org.springframework.modulith.ApplicationModule;
