package dev.memoir.web;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatusCode;

/**
 * OpenAI's error body, {"error": {"message", "type", "code", "param"}}, with the status codes and {@code code}s of
 * the rest of the API: what the OpenAI-compatible paths under {@code /v1/} answer instead of a problem detail, so
 * that OpenAI clients report the error, wherever it was raised (a controller, a filter, a failing stream).
 */
public final class OpenAiErrorBody {

    private OpenAiErrorBody() {
    }

    /** Whether a request path (within the application) is one of the OpenAI-compatible ones. */
    public static boolean isOpenAiPath(String path) {
        return path.startsWith("/v1/");
    }

    public static Map<String, Object> of(HttpStatusCode status, String code, String message, String param) {
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
