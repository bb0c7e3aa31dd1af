package dev.memoir.chat.openai;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import dev.memoir.common.web.ApiException;
import dev.memoir.common.web.InvalidRequestException;

/**
 * Errors of the OpenAI-compatible endpoints in OpenAI's error body, {@code {"error": {"message", "type", "code",
 * "param"}}}, with the status codes and {@code code}s of the rest of the API, so that OpenAI clients report them.
 */
@RestControllerAdvice(assignableTypes = OpenAiCompatibleController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class OpenAiErrors {

    private static final Logger log = LoggerFactory.getLogger(OpenAiErrors.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Map<String, Object>> api(ApiException ex) {
        if (ex.status().is5xxServerError()) {
            log.warn("{}: {}", ex.code(), ex.getMessage());
        }
        String param = ex instanceof InvalidRequestException invalid
                        && !invalid.errors().isEmpty()
                ? invalid.errors().getFirst().field()
                : null;
        String message = ex instanceof InvalidRequestException invalid
                        && !invalid.errors().isEmpty()
                ? invalid.errors().getFirst().field() + ": "
                        + invalid.errors().getFirst().message()
                : ex.getMessage();
        return error(ex.status(), ex.code(), message, param);
    }

    @ExceptionHandler(MethodArgumentNotValidException.class)
    ResponseEntity<Map<String, Object>> invalid(MethodArgumentNotValidException ex) {
        var field = ex.getBindingResult().getFieldErrors().stream().findFirst();
        return error(
                HttpStatus.BAD_REQUEST,
                "invalid-request",
                field.map(f -> f.getField() + ": " + f.getDefaultMessage()).orElse("The request is invalid"),
                field.map(FieldError::getField).orElse(null));
    }

    @ExceptionHandler({HttpMessageNotReadableException.class, MethodArgumentTypeMismatchException.class})
    ResponseEntity<Map<String, Object>> unreadable(Exception ex) {
        String param = ex instanceof MethodArgumentTypeMismatchException mismatch ? mismatch.getName() : null;
        return error(
                HttpStatus.BAD_REQUEST,
                param == null ? "malformed-body" : "invalid-request",
                param == null ? "The body is not a valid chat-completions request" : param + " is not valid",
                param);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Map<String, Object>> unexpected(Exception ex) {
        log.error("Unexpected error", ex);
        return error(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "An unexpected error occurred", null);
    }

    private static ResponseEntity<Map<String, Object>> error(
            HttpStatusCode status, String code, String message, String param) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body(status, code, message, param));
    }

    /** OpenAI's error body; also the data of the error event that ends a stream that failed after it began. */
    static Map<String, Object> body(HttpStatusCode status, String code, String message, String param) {
        return OpenAiErrorBody.of(status, code, message, param);
    }
}
