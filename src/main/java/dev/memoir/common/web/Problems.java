package dev.memoir.common.web;

import java.net.URI;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/** Builds the service's ProblemDetails so that every error, wherever it is raised, has the same shape. */
public final class Problems {

    static final String TYPE_PREFIX = "https://memoir.dev/problems/";

    private Problems() {}

    public static ProblemDetail of(HttpStatusCode status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_PREFIX + code));
        problem.setProperty("code", code);
        return problem;
    }
}
