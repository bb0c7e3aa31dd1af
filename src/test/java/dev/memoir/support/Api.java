package dev.memoir.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        var transport = HttpClientStreamableHttpTransport.builder(baseUrl)
                .endpoint("/mcp")
                .httpRequestCustomizer(
                        (request, method, uri, body, context) -> request.header("Authorization", "Bearer " + key))
                .build();
        var client =
                McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    public record Response(int status, JsonNode body, String raw) {

        public String text(String field) {
            return body.path(field).asString();
        }
    }

    /** Asks the operator's endpoint for a tenant of this name: the answer as it is (its id and first apiKey). */
    public Response createTenant(String name) {
        return send("POST", "/admin/tenants", BOOTSTRAP_KEY, Json.object("name", name));
    }

    /** Creates a tenant and answers its API key. */
    public String newTenant() {
        Response response = createTenant("tenant-" + UUID.randomUUID());
        if (response.status() != 201) {
            throw new IllegalStateException("Could not create a tenant: " + response.raw());
        }
        return response.text("apiKey");
    }

    /** Creates a session and answers its id; {@code memoryJson} may be null. */
    public String newSession(String key, String userId, String memoryJson) {
        String body = memoryJson == null
                ? Json.object("userId", userId)
                : Json.object("userId", userId, "memory", Json.parsed(memoryJson));
        Response response = send("POST", "/sessions", key, body);
        if (response.status() != 201) {
            throw new IllegalStateException("Could not create a session: " + response.raw());
        }
        return response.text("id");
    }

    public Response chat(String key, String sessionId, String message) {
        return send("POST", "/chat", key, Json.object("sessionId", sessionId, "message", message));
    }

    public Response importTurns(String key, String sessionId, String... userThenAssistant) {
        List<Map<String, Object>> turns = new ArrayList<>();
        for (int i = 0; i < userThenAssistant.length; i++) {
            turns.add(Json.fields("role", i % 2 == 0 ? "user" : "assistant", "content", userThenAssistant[i]));
        }
        return send("POST", "/sessions/" + sessionId + "/turns", key, Json.object("turns", turns));
    }

    /** Adds a memory of the user: the text and any further fields (name, value, ...); the answer as it is. */
    public Response addMemory(String key, String userId, String text, Object... moreFields) {
        Map<String, Object> body = Json.fields("userId", userId, "text", text);
        body.putAll(Json.fields(moreFields));
        return send("POST", "/memory", key, Json.write(body));
    }

    /** Adds a fact that must be created (201), with any further fields (name, value, ...); answers its id. */
    public String addFact(String key, String userId, String text, Object... moreFields) {
        Response added = addMemory(key, userId, text, moreFields);
        assertThat(added.status()).as(added.raw()).isEqualTo(201);
        return added.text("id");
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

    /** A POST of raw bytes (a file upload: an export, a zip) with its content type. */
    public Response postBytes(String path, String key, byte[] body, String contentType) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", contentType)
                .header("Authorization", "Bearer " + key)
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), parse(response.body()), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A request with extra headers (name, value, name, value, ...). */
    public Response sendWithHeadersAsResponse(String method, String path, String key, String body, String... headers) {
        HttpResponse<String> response = sendWithHeaders(method, path, key, body, headers);
        return new Response(response.statusCode(), parse(response.body()), response.body());
    }

    /** The raw answer with its headers, for tests about headers. */
    public HttpResponse<String> sendWithHeaders(
            String method, String path, String key, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
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
