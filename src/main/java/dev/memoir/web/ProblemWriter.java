package dev.memoir.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a ProblemDetail from a servlet filter, where the controller advice does not reach; on the OpenAI-compatible
 * paths, as OpenAI's error body with the same status and code, since OpenAI clients read only that.
 */
@Component
public class ProblemWriter {

    private final JsonMapper jsonMapper;

    ProblemWriter(JsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
            throws IOException {
        response.setStatus(problem.getStatus());
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (OpenAiErrorBody.isOpenAiPath(path)) {
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            Object code = problem.getProperties() == null ? null : problem.getProperties().get("code");
            jsonMapper.writeValue(response.getOutputStream(), OpenAiErrorBody.of(
                    HttpStatusCode.valueOf(problem.getStatus()), code == null ? null : code.toString(),
                    problem.getDetail(), null));
            return;
        }
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        jsonMapper.writeValue(response.getOutputStream(), problem);
    }
}
