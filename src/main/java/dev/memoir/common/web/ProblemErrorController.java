package dev.memoir.common.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The servlet container's error page (errors raised outside Spring MVC, such as a filter's) in the same
 * ProblemDetail shape as every other error. Asked for directly, /error is just an unknown endpoint.
 */
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping(
            path = "/error",
            produces = {MediaType.APPLICATION_PROBLEM_JSON_VALUE, MediaType.ALL_VALUE})
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (!(code instanceof Integer status)) {
            return problem(HttpStatus.NOT_FOUND, "not-found", "No endpoint /error");
        }
        HttpStatus resolved = HttpStatus.resolve(status);
        if (resolved == null) {
            resolved = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        String problemCode = switch (resolved.value()) {
            case 400 -> "invalid-request";
            case 401 -> "unauthorized";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 413 -> "payload-too-large";
            default -> resolved.is5xxServerError() ? "internal-error" : "request-error";
        };
        String detail = resolved.is5xxServerError() ? "An unexpected error occurred" : resolved.getReasonPhrase();
        return problem(resolved, problemCode, detail);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String code, String detail) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.of(status, code, detail));
    }
}
