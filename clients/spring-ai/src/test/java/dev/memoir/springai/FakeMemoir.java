package dev.memoir.springai;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Memoir's REST API as far as the client's unit tests need it: answers queued per path prefix (a context, a session,
 * a problem detail), and every request it received, with its body and bearer key. A path with nothing queued answers
 * 404 not-found as Memoir does.
 */
final class FakeMemoir implements AutoCloseable {

    record Request(String method, String path, String authorization, String body) {}

    private record Answer(String pathPrefix, int status, String body, String retryAfter) {}

    private final HttpServer server;
    private final Deque<Answer> answers = new ArrayDeque<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeMemoir() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    FakeMemoir answer(String pathPrefix, int status, String body) {
        return answer(pathPrefix, status, body, null);
    }

    synchronized FakeMemoir answer(String pathPrefix, int status, String body, String retryAfter) {
        answers.add(new Answer(pathPrefix, status, body, retryAfter));
        return this;
    }

    static String problem(int status, String code, String detail) {
        return "{\"type\":\"https://memoir.dev/problems/" + code + "\",\"title\":\"t\",\"status\":" + status
                + ",\"detail\":\"" + detail + "\",\"code\":\"" + code + "\"}";
    }

    List<Request> requests(String pathPrefix) {
        return requests.stream().filter(r -> r.path().startsWith(pathPrefix)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().toString();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(
                exchange.getRequestMethod(), path, exchange.getRequestHeaders().getFirst("Authorization"), body));
        Answer answer = take(path);
        if (answer == null) {
            answer = new Answer(path, 404, problem(404, "not-found", "nothing queued for " + path), null);
        }
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders()
                .add("Content-Type", answer.status() >= 400 ? "application/problem+json" : "application/json");
        if (answer.retryAfter() != null) {
            exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
        }
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    private synchronized Answer take(String path) {
        for (Answer answer : answers) {
            if (path.startsWith(answer.pathPrefix())) {
                answers.remove(answer);
                return answer;
            }
        }
        return null;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
