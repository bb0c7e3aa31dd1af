package dev.memoir.common.web;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a ProblemDetail from a servlet filter, where the controller advice does not reach; on paths a feature
 * declared an {@link ErrorDialect} for (OpenAI's error body on chat's {@code /v1/} paths), in that dialect with the
 * same status and code, since those clients read only that.
 */
@Component
public class ProblemWriter {

    private final JsonMapper jsonMapper;
    private final List<ErrorDialect> dialects;

    ProblemWriter(JsonMapper jsonMapper, List<ErrorDialect> dialects) {
        this.jsonMapper = jsonMapper;
        this.dialects = dialects;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
            throws IOException {
        response.setStatus(problem.getStatus());
        String path = request.getRequestURI().substring(request.getContextPath().length());
        var dialect =
                dialects.stream().filter(candidate -> candidate.covers(path)).findFirst();
        if (dialect.isPresent()) {
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            Object code = problem.getProperties() == null
                    ? null
                    : problem.getProperties().get("code");
            jsonMapper.writeValue(
                    response.getOutputStream(),
                    dialect.get()
                            .body(
                                    HttpStatusCode.valueOf(problem.getStatus()),
                                    code == null ? null : code.toString(),
                                    problem.getDetail()));
            return;
        }
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        jsonMapper.writeValue(response.getOutputStream(), problem);
    }
}
