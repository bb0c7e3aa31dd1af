package dev.memoir.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An HTTP proxy in front of a model server that passes every request and answer through unchanged (streams as they
 * come) and records what was asked and what the server said: each request's step, model, temperature and
 * max_tokens, the answer's status and the token counts the server reported.
 */
public final class RecordingProxy implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> FORWARDED =
            Set.of("authorization", "content-type", "accept", ModelStep.HEADER.toLowerCase());

    private final HttpServer server;
    private final String target;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

    /** One request and what the server answered to it. */
    public record Exchange(
            String step, JsonNode request, int status, Integer promptTokens, Integer completionTokens, String error) {

        public String model() {
            return request.path("model").asString(null);
        }

        public Double temperature() {
            return request.path("temperature").isNumber()
                    ? request.path("temperature").asDouble()
                    : null;
        }

        public Integer maxTokens() {
            JsonNode limit =
                    request.has("max_tokens") ? request.path("max_tokens") : request.path("max_completion_tokens");
            return limit.isNumber() ? limit.asInt() : null;
        }

        public boolean streamed() {
            return request.path("stream").asBoolean(false);
        }

        /** The text of the request's messages, joined. */
        public String messages() {
            StringBuilder text = new StringBuilder();
            request.path("messages")
                    .forEach(message ->
                            text.append(message.path("content").asString("")).append('\n'));
            return text.toString();
        }
    }

    /** A proxy to {@code target}, a base URL with /v1. */
    public RecordingProxy(String target) {
        this.target = target.replaceFirst("/v1$", "");
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                    .method(
                            exchange.getRequestMethod(),
                            body.length == 0
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (FORWARDED.contains(name.toLowerCase())) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<InputStream> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            response.headers()
                    .firstValue("content-type")
                    .ifPresent(type -> exchange.getResponseHeaders().add("Content-Type", type));
            exchange.sendResponseHeaders(response.statusCode(), 0);
            ByteArrayOutputStream copy = new ByteArrayOutputStream();
            try (InputStream in = response.body();
                    OutputStream out = exchange.getResponseBody()) {
                byte[] buffer = new byte[8192];
                for (int read; (read = in.read(buffer)) != -1; ) {
                    out.write(buffer, 0, read);
                    out.flush();
                    copy.write(buffer, 0, read);
                }
            }
            if (exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
                record(exchange, body, response.statusCode(), copy.toString(StandardCharsets.UTF_8));
            }
        }
    }

    private void record(HttpExchange exchange, byte[] body, int status, String answer) {
        JsonNode request = JSON.readTree(body);
        JsonNode usage = null;
        if (answer.startsWith("data:") || answer.contains("\ndata:")) {
            for (String line : answer.split("\n")) {
                if (line.startsWith("data: {") && line.contains("\"usage\"")) {
                    JsonNode chunk = JSON.readTree(line.substring(6));
                    if (chunk.path("usage").isObject()) {
                        usage = chunk.path("usage");
                    }
                }
            }
        } else if (answer.startsWith("{")) {
            usage = JSON.readTree(answer).path("usage");
        }
        Integer prompt = usage != null && usage.path("prompt_tokens").isNumber()
                ? usage.path("prompt_tokens").asInt()
                : null;
        Integer completion = usage != null && usage.path("completion_tokens").isNumber()
                ? usage.path("completion_tokens").asInt()
                : null;
        exchanges.add(new Exchange(
                exchange.getRequestHeaders().getFirst(ModelStep.HEADER),
                request,
                status,
                prompt,
                completion,
                status == 200 ? null : answer));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
