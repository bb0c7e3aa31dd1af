package dev.memoir.common.web;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * Documents errors as they are sent: every 4xx and 5xx answer is {@code application/problem+json} with one
 * {@code Problem} schema (paths a feature declared an {@link ErrorDialect} for use its body instead, as chat's
 * OpenAI-compatible paths use OpenAI's), every operation can answer
 * 401, and a tenant's writing operations 429. Without this, springdoc documents an error with the success body.
 */
@Component
class ProblemDocumentation implements OpenApiCustomizer {

    static final String PROBLEM_JSON = "application/problem+json";

    private final List<ErrorDialect> dialects;

    ProblemDocumentation(List<ErrorDialect> dialects) {
        this.dialects = dialects;
    }

    @Override
    public void customise(OpenAPI api) {
        api.getComponents()
                .addSchemas(
                        "FieldError",
                        new ObjectSchema()
                                .description("One invalid field or parameter")
                                .addProperty("field", new StringSchema().example("userId"))
                                .addProperty("message", new StringSchema().example("must not be blank")))
                .addSchemas("Problem", problemSchema());
        dialects.forEach(dialect -> api.getComponents().addSchemas(dialect.schemaName(), dialect.schema()));
        if (api.getPaths() == null) {
            return;
        }
        api.getPaths()
                .forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
                    ApiResponses responses = operation.getResponses();
                    if (responses == null) {
                        responses = new ApiResponses();
                        operation.setResponses(responses);
                    }
                    boolean operator = path.startsWith("/admin");
                    responses.computeIfAbsent(
                            "401",
                            code -> new ApiResponse()
                                    .description(
                                            operator
                                                    ? "Missing or wrong bootstrap key"
                                                    : "Missing, unknown or revoked API key"));
                    if (!operator && writes(method)) {
                        responses.computeIfAbsent(
                                "429",
                                code -> new ApiResponse()
                                        .description(
                                                "The service is busy: this writing request waited memoir.tenant-limits.max-wait "
                                                        + "for its turn in vain, or its tenant already has memoir.tenant-limits.max-waiting "
                                                        + "requests waiting; retry after the Retry-After header's seconds")
                                        .headers(Map.of(
                                                "Retry-After",
                                                new Header()
                                                        .description("Seconds to wait")
                                                        .schema(new IntegerSchema()))));
                    }
                    Content errors = dialects.stream()
                            .filter(dialect -> dialect.covers(path))
                            .findFirst()
                            .map(dialect -> errorContent("application/json", dialect.schemaName()))
                            .orElseGet(() -> errorContent(PROBLEM_JSON, "Problem"));
                    responses.forEach((code, response) -> {
                        if (code.startsWith("4") || code.startsWith("5")) {
                            response.setContent(errors);
                        }
                    });
                }));
    }

    private static boolean writes(PathItem.HttpMethod method) {
        return switch (method) {
            case POST, PUT, PATCH, DELETE -> true;
            default -> false;
        };
    }

    private static Content errorContent(String mediaType, String schema) {
        return new Content()
                .addMediaType(mediaType, new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + schema)));
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema problemSchema() {
        ObjectSchema problem = new ObjectSchema();
        problem.description("An RFC 9457 problem detail; `code` is stable and names the problem");
        problem.addProperty("type", new StringSchema().format("uri").example(Problems.TYPE_PREFIX + "invalid-request"));
        problem.addProperty("title", new StringSchema().example("Bad Request"));
        problem.addProperty("status", new IntegerSchema().example(400));
        problem.addProperty("detail", new StringSchema().example("userId: must not be blank"));
        problem.addProperty(
                "instance", new StringSchema().format("uri-reference").example("/memory"));
        problem.addProperty("code", new StringSchema().example("invalid-request"));
        problem.addProperty(
                "errors",
                new ArraySchema()
                        .items(new Schema<>().$ref("#/components/schemas/FieldError"))
                        .description("For invalid-request: each invalid field or parameter"));
        problem.setRequired(List.of("type", "title", "status", "code"));
        return problem;
    }
}
