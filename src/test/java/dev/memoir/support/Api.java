package dev.memoir.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;

import org.springframework.ai.openai.http.okhttp.SpringAiOpenAiHttpClient;

import com.openai.client.OpenAIClient;
import com.openai.client.OpenAIClientImpl;
import com.openai.core.ClientOptions;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/** A small HTTP client for the service under test: raw requests in, status and JSON out. */
public final class Api {

    public static final String BOOTSTRAP_KEY = "test-bootstrap-key";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String baseUrl;
    private final int port;

    public Api(int port) {
        this.port = port;
        this.baseUrl = "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The official OpenAI Java SDK pointed at Memoir's /v1 with a tenant key, as a user's application would be. */
    public OpenAIClient openAi(String key) {
        return new OpenAIClientImpl(ClientOptions.builder()
                .httpClient(SpringAiOpenAiHttpClient.builder().build())
                .baseUrl("http://127.0.0.1:" + port + "/v1")
                .apiKey(key)
                .maxRetries(0)
                .build());
    }

    /** The MCP Java SDK's client, initialised against Memoir's /mcp with a tenant key; the caller closes it. */
    public McpSyncClient mcp(String key) {
        var transport = HttpClientStreamableHttpTransport
                .builder(baseUrl)
                .endpoint("/mcp")
                .httpRequestCustomizer((request, method, uri, body, context) ->
                        request.header("Authorization", "Bearer " + key))
                .build();
        var client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    public record Response(int status, JsonNode body, String raw) {

        public String text(String field) {
            return body.path(field).asString();
        }
    }

    /** Creates a tenant and answers its API key. */
    public String newTenant() {
        Response response = send("POST", "/admin/tenants", BOOTSTRAP_KEY, "{\"name\": \"tenant-" + UUID.randomUUID() + "\"}");
        if (response.status() != 201) {
            throw new IllegalStateException("Could not create a tenant: " + response.raw());
        }
        return response.text("apiKey");
    }

    /** Creates a session and answers its id; {@code memoryJson} may be null. */
    public String newSession(String key, String userId, String memoryJson) {
        String body = memoryJson == null ? "{\"userId\": \"" + userId + "\"}"
                : "{\"userId\": \"" + userId + "\", \"memory\": " + memoryJson + "}";
        Response response = send("POST", "/sessions", key, body);
        if (response.status() != 201) {
            throw new IllegalStateException("Could not create a session: " + response.raw());
        }
        return response.text("id");
    }

    public Response chat(String key, String sessionId, String message) {
        return send("POST", "/chat", key, "{\"sessionId\": \"" + sessionId + "\", \"message\": " + quote(message) + "}");
    }

    public Response importTurns(String key, String sessionId, String... userThenAssistant) {
        StringBuilder turns = new StringBuilder();
        for (int i = 0; i < userThenAssistant.length; i++) {
            if (i > 0) {
                turns.append(',');
            }
            turns.append("{\"role\": \"").append(i % 2 == 0 ? "user" : "assistant").append("\", \"content\": ")
                    .append(quote(userThenAssistant[i])).append('}');
        }
        return send("POST", "/sessions/" + sessionId + "/turns", key, "{\"turns\": [" + turns + "]}");
    }

    public Response close(String key, String sessionId) {
        return send("POST", "/sessions/" + sessionId + "/close", key, null);
    }

    /** Imports the turns into a session of the user, closes it, and opens the next one, whose id it returns. */
    public String sessionAfterClosedOne(String key, String userId, String memoryJson, String... userThenAssistant) {
        String past = newSession(key, userId, memoryJson);
        importTurns(key, past, userThenAssistant);
        close(key, past);
        return newSession(key, userId, memoryJson);
    }

    public Response get(String key, String path) {
        return send("GET", path, key, null);
    }

    public Response send(String method, String path, String key, String body) {
        HttpResponse<String> response = sendWithHeaders(method, path, key, body);
        return new Response(response.statusCode(), parse(response.body()), response.body());
    }

    /** A request with extra headers (name, value, name, value, ...). */
    public Response sendWithHeadersAsResponse(String method, String path, String key, String body,
            String... headers) {
        HttpResponse<String> response = sendWithHeaders(method, path, key, body, headers);
        return new Response(response.statusCode(), parse(response.body()), response.body());
    }

    /** The raw answer with its headers, for tests about headers. */
    public HttpResponse<String> sendWithHeaders(String method, String path, String key, String body,
            String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static String quote(String text) {
        return JSON.writeValueAsString(text);
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return JSON.readTree(body);
        } catch (RuntimeException e) {
            return MissingNode.getInstance();
        }
    }
}
