package dev.memoir.chat.openai;

import java.util.LinkedHashMap;
import java.util.Map;

import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;

import dev.memoir.common.web.ErrorDialect;

/**
 * OpenAI's error body, {"error": {"message", "type", "code", "param"}}, with the status codes and {@code code}s of
 * the rest of the API: what the OpenAI-compatible paths under {@code /v1/} answer instead of a problem detail, so
 * that OpenAI clients report the error, wherever it was raised (a controller, a filter, a failing stream).
 */
@Component
class OpenAiErrorBody implements ErrorDialect {

    @Override
    public boolean covers(String path) {
        return path.startsWith("/v1/");
    }

    @Override
    public Object body(HttpStatusCode status, String code, String message) {
        return of(status, code, message, null);
    }

    @Override
    public String schemaName() {
        return "OpenAiError";
    }

    @Override
    public Schema<?> schema() {
        return new ObjectSchema()
                .description("OpenAI's error body, used on the /v1 paths")
                .addProperty(
                        "error",
                        new ObjectSchema()
                                .addProperty("message", new StringSchema())
                                .addProperty("type", new StringSchema().example("invalid_request_error"))
                                .addProperty("code", new StringSchema().example("invalid-request"))
                                .addProperty("param", new StringSchema().example("user")));
    }

    static Map<String, Object> of(HttpStatusCode status, String code, String message, String param) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", message);
        error.put("type", type(status.value()));
        error.put("code", code);
        error.put("param", param);
        return Map.of("error", error);
    }

    private static String type(int status) {
        return switch (status) {
            case 400, 404, 409, 413, 415 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }
}
