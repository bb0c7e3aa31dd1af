package dev.memoir.common.web;

import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

import dev.memoir.common.wire.WireNames;

import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;

/** Turns every error into an RFC 9457 ProblemDetail with a stable {@code type} and {@code code}. */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    /** One line at WARN for a failure on Memoir's side (a model server's, say); the stack trace at DEBUG. */
    @ExceptionHandler(ApiException.class)
    ResponseEntity<ProblemDetail> handleApiException(ApiException ex) {
        if (ex.status().is5xxServerError()) {
            log.warn("{}: {}", ex.code(), ex.getMessage());
            log.debug("{}", ex.code(), ex);
        }
        ProblemDetail problem = Problems.of(ex.status(), ex.code(), ex.getMessage());
        if (ex instanceof InvalidRequestException invalid) {
            problem.setProperty("errors", invalid.errors());
        }
        ex.properties().forEach(problem::setProperty);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(ex.status());
        ex.retryAfter()
                .ifPresent(wait -> response.header(
                        HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000))));
        return response.body(problem);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> handleTypeMismatch(MethodArgumentTypeMismatchException ex) {
        String detail = "Parameter '" + ex.getName() + "' has an invalid value: " + ex.getValue();
        String message = "invalid value";
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof WireNames.UnknownValueException unknown) {
                detail = "Parameter '" + ex.getName() + "' has an invalid value: " + unknown.getMessage();
            }
            if (cause instanceof StorableInstants.UnstorableInstantException unstorable) {
                message = unstorable.getMessage();
                detail = "Parameter '" + ex.getName() + "' " + message;
            }
        }
        if (ex.getRequiredType() != null && ex.getRequiredType().isEnum() && !detail.contains("accepted: ")) {
            detail += "; accepted: " + WireNames.accepted(ex.getRequiredType());
        }
        ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", detail);
        problem.setProperty("errors", List.of(new FieldError(ex.getName(), message)));
        return ResponseEntity.badRequest().body(problem);
    }

    /**
     * No connection in time (every pooled connection busy for the pool's timeout, or the database down): a
     * temporary condition the client can wait out, not a fault of the service (500) or of the request.
     */
    @ExceptionHandler({
        CannotCreateTransactionException.class,
        DataAccessResourceFailureException.class,
        QueryTimeoutException.class
    })
    ResponseEntity<ProblemDetail> handleDatabaseUnavailable(Exception ex) {
        log.warn("Database unavailable: {}", ex.getMessage());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, "2")
                .body(Problems.of(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "database-unavailable",
                        "The database did not answer in time (busy or unreachable); retry after the Retry-After "
                                + "header's seconds"));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> handleUnexpected(Exception ex) {
        log.error("Unexpected error", ex);
        return ResponseEntity.internalServerError()
                .body(Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "An unexpected error occurred"));
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = ex.getBindingResult().getFieldErrors().stream()
                .map(e -> new FieldError(e.getField(), e.getDefaultMessage()))
                .toList();
        return badRequest(errors);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> new FieldError(
                                result.getMethodParameter().getParameterName(), error.getDefaultMessage())))
                .toList();
        return badRequest(errors);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException ex,
            HttpHeaders headers,
            HttpStatusCode status,
            WebRequest request) {
        return badRequest(List.of(new FieldError(ex.getParameterName(), "is required")));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (ex.getCause() instanceof DatabindException databind
                && !databind.getPath().isEmpty()) {
            String field = databind.getPath().stream()
                    .map(ref -> ref.getPropertyName() != null ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining("."))
                    .replace(".[", "[");
            return badRequest(List.of(new FieldError(field, invalidValueMessage(databind))));
        }
        ProblemDetail problem = Problems.of(
                HttpStatus.BAD_REQUEST, "malformed-body", "The request body is missing or is not valid JSON");
        return ResponseEntity.badRequest().body(problem);
    }

    @Override
    protected ResponseEntity<Object> handleNoResourceFoundException(
            NoResourceFoundException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
                .body(Problems.of(HttpStatus.NOT_FOUND, "not-found", "No endpoint " + ex.getResourcePath()));
    }

    @Override
    protected ResponseEntity<Object> handleHttpRequestMethodNotSupported(
            HttpRequestMethodNotSupportedException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.status(HttpStatus.METHOD_NOT_ALLOWED)
                .headers(headers)
                .body(Problems.of(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", ex.getMessage()));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
            HttpMediaTypeNotSupportedException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
                .headers(headers)
                .body(Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", ex.getMessage()));
    }

    /**
     * Gives the ProblemDetails that Spring builds for the remaining MVC errors the same {@code code} and
     * {@code type} as ours.
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null
                && response.getBody() instanceof ProblemDetail problem
                && (problem.getProperties() == null || !problem.getProperties().containsKey("code"))) {
            String code = switch (statusCode.value()) {
                case 400 -> "invalid-request";
                case 404 -> "not-found";
                case 405 -> "method-not-allowed";
                case 406 -> "not-acceptable";
                case 413 -> "payload-too-large";
                case 415 -> "unsupported-media-type";
                default -> statusCode.is5xxServerError() ? "internal-error" : "request-error";
            };
            ProblemDetail coded =
                    Problems.of(statusCode, code, problem.getDetail() != null ? problem.getDetail() : ex.getMessage());
            coded.setInstance(problem.getInstance());
            return new ResponseEntity<>(coded, response.getHeaders(), response.getStatusCode());
        }
        return response;
    }

    private static String invalidValueMessage(DatabindException ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof WireNames.UnknownValueException unknown) {
                return "has an invalid value: " + unknown.getMessage();
            }
        }
        if (ex instanceof InvalidFormatException format
                && format.getTargetType() != null
                && format.getTargetType().isEnum()) {
            return "has an invalid value '" + format.getValue() + "'; accepted: "
                    + WireNames.accepted(format.getTargetType());
        }
        if (ex instanceof MismatchedInputException mismatch
                && mismatch.getTargetType() != null
                && mismatch.getTargetType().isEnum()) {
            return "must be one of: " + WireNames.accepted(mismatch.getTargetType());
        }
        if (ex instanceof InvalidFormatException format
                && (format.getTargetType() == String.class || format.getTargetType() == Instant.class)) {
            // Raised by JsonTextModule or ClientValueChecks with the reason as its message.
            return format.getOriginalMessage();
        }
        if (ex instanceof ClientValueChecks.NullIdException nullId) {
            return nullId.getOriginalMessage();
        }
        if (ex.getCause() instanceof IllegalArgumentException invalid && invalid.getMessage() != null) {
            return "has an invalid value: " + invalid.getMessage();
        }
        return "has an invalid value";
    }

    private ResponseEntity<Object> badRequest(List<FieldError> errors) {
        String detail = errors.stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; "));
        ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", detail);
        problem.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(problem);
    }
}
