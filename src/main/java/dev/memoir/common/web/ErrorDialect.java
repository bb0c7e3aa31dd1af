package dev.memoir.common.web;

import io.swagger.v3.oas.models.media.Schema;

import org.springframework.http.HttpStatusCode;

/**
 * Paths whose clients read errors in a body other than a ProblemDetail, declared by the feature that serves them (chat
 * declares OpenAI's error body for its {@code /v1/} paths): errors raised where the controller advice does not reach,
 * and the API documentation's error responses, follow it there. Same status codes and {@code code}s as everywhere.
 */
public interface ErrorDialect {

    /** Whether a request path (within the application) answers errors in this dialect. */
    boolean covers(String path);

    /** The error body for a status, a stable {@code code} and a message. */
    Object body(HttpStatusCode status, String code, String message);

    /** The name under which {@link #schema()} is documented in the OpenAPI components. */
    String schemaName();

    /** The error body's schema, for the API documentation. */
    Schema<?> schema();
}
