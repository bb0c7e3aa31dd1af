package dev.memoir.common.web;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Tomcat refuses some requests before any servlet sees them (a path with an encoded NUL, slash or invalid UTF-8,
 * say) and answers them with its own HTML page. This puts a ProblemDetail in that page's place, so that every
 * answer of the service, whoever writes it, is {@code application/problem+json} with a {@code code}.
 */
@Component
class ConnectorProblemPages implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemReportValve.class.getName());
            }
        });
    }

    /** Tomcat's error page as a ProblemDetail; Tomcat creates it by class name, hence public. */
    public static class ProblemReportValve extends ErrorReportValve {

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            HttpStatus known = HttpStatus.resolve(status);
            String code = status == 400
                    ? "invalid-request"
                    : status == 404
                            ? "not-found"
                            : known != null && known.is4xxClientError() ? "invalid-request" : "internal-error";
            String detail = status == 400
                    ? "The request line is not valid: its path or query holds an encoded "
                            + "character that is not allowed (a NUL, a slash or backslash, or invalid UTF-8)"
                    : known != null ? known.getReasonPhrase() : "The request could not be served";
            String json = "{\"type\":\"" + Problems.TYPE_PREFIX + code + "\",\"title\":\""
                    + (known != null ? known.getReasonPhrase() : "Error") + "\",\"status\":" + status
                    + ",\"detail\":\"" + detail + "\",\"code\":\"" + code + "\"}";
            try {
                response.setContentType("application/problem+json");
                response.setCharacterEncoding("UTF-8");
                Writer writer = response.getReporter();
                if (writer != null) {
                    writer.write(json);
                    response.finishResponse();
                }
            } catch (IOException | IllegalStateException e) {
                // The client is gone or the response was taken over: nothing more to say.
            }
        }
    }
}
