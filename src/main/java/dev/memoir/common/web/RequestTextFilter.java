package dev.memoir.common.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.memoir.common.wire.TextSafety;

/**
 * Refuses query parameters that are not text (a NUL, invalid UTF-8, an unpaired surrogate) with a 400 naming the
 * parameter, before anything reads them. JSON bodies get the same check field by field (see
 * {@link JsonTextModule}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class RequestTextFilter extends OncePerRequestFilter {

    private final ProblemWriter problemWriter;

    RequestTextFilter(ProblemWriter problemWriter) {
        this.problemWriter = problemWriter;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<FieldError> errors = new ArrayList<>();
        String rawQuery = request.getQueryString();
        if (rawQuery != null && hasMalformedEscape(rawQuery)) {
            errors.add(new FieldError("query string", "is not valid percent-encoded UTF-8"));
        }
        for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
            String nameProblem = TextSafety.problem(parameter.getKey());
            if (nameProblem != null) {
                errors.add(new FieldError("query string", "has a parameter name that " + nameProblem));
            }
            for (String value : parameter.getValue()) {
                String problem = TextSafety.problem(value);
                if (problem != null) {
                    errors.add(new FieldError(parameter.getKey(), problem));
                    break;
                }
            }
        }
        if (!errors.isEmpty()) {
            String detail =
                    errors.stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; "));
            ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-request", detail);
            problem.setProperty("errors", errors);
            problemWriter.write(request, response, problem);
            return;
        }
        chain.doFilter(request, response);
    }

    /** Percent escapes that do not decode to UTF-8 text: the servlet container may drop such parameters silently. */
    private static boolean hasMalformedEscape(String rawQuery) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < rawQuery.length(); i++) {
            char c = rawQuery.charAt(i);
            if (c == '%'
                    && i + 2 < rawQuery.length()
                    && Character.digit(rawQuery.charAt(i + 1), 16) >= 0
                    && Character.digit(rawQuery.charAt(i + 2), 16) >= 0) {
                bytes.write(
                        Character.digit(rawQuery.charAt(i + 1), 16) * 16 + Character.digit(rawQuery.charAt(i + 2), 16));
                i += 2;
            } else if (c == '%') {
                return true;
            } else {
                bytes.write(c);
            }
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()));
            return false;
        } catch (CharacterCodingException e) {
            return true;
        }
    }
}
