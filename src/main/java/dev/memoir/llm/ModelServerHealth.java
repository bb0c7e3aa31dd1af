package dev.memoir.llm;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.model.openai.autoconfigure.OpenAiChatProperties;
import org.springframework.ai.model.openai.autoconfigure.OpenAiCommonProperties;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Whether the chat model server answers and lists the configured model ({@code GET <base-url>/models}, which
 * OpenAI, Ollama, vLLM and llama.cpp all serve): the {@code modelServer} component of {@code /actuator/health}
 * (its details for the operator), and one warning at start-up when it does not, so that a model never pulled is
 * found before the first chat answers 502. A server that does not is {@value #UNAVAILABLE}, not DOWN: memory is
 * stored, searched, edited and erased without the model, so the service's own status, which probes and load
 * balancers read, stays UP (a status outside the aggregation order does not count in it).
 */
@Component("modelServer")
class ModelServerHealth implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(ModelServerHealth.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final String UNAVAILABLE = "UNAVAILABLE";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final String baseUrl;
    private final String apiKey;
    private final String model;

    ModelServerHealth(OpenAiCommonProperties common, OpenAiChatProperties chat, ChatModelClient client) {
        this.baseUrl = stripSlash(chat.getBaseUrl() != null ? chat.getBaseUrl() : common.getBaseUrl());
        this.apiKey = chat.getApiKey() != null ? chat.getApiKey() : common.getApiKey();
        this.model = client.configuredModel();
    }

    /** What the server said about its models: whether it answered, what it lists, or why not. */
    record Check(boolean reachable, List<String> models, String problem) {

        boolean lists(String model) {
            return models.stream()
                    .anyMatch(listed -> listed.equals(model)
                            || listed.equals(model + ":latest")
                            || model.equals(listed + ":latest"));
        }
    }

    @Override
    public Health health() {
        Check check = check();
        Health.Builder health = check.reachable() && check.lists(model)
                ? Health.up()
                : Health.status(new Status(
                        UNAVAILABLE,
                        "Chats and memory jobs fail until the model server answers "
                                + "and lists the configured model"));
        health.withDetail("baseUrl", baseUrl).withDetail("model", model);
        if (!check.reachable()) {
            return health.withDetail("error", check.problem()).build();
        }
        health.withDetail("modelListed", check.lists(model));
        if (!check.lists(model)) {
            health.withDetail("listedModels", check.models().stream().limit(20).toList());
        }
        return health.build();
    }

    /** Says once, at start-up and without holding it up, when the model cannot be used as configured. */
    @EventListener(ApplicationReadyEvent.class)
    void warnIfTheModelIsMissing() {
        Thread.ofVirtual().name("model-server-check").start(() -> {
            Check check = check();
            if (!check.reachable()) {
                log.warn(
                        "The chat model server at {} did not answer GET /models ({}); chats and memory jobs fail "
                                + "until it does",
                        baseUrl,
                        check.problem());
            } else if (!check.lists(model)) {
                log.warn(
                        "The chat model server at {} does not list the model '{}' (spring.ai.openai.chat.model); "
                                + "it lists {}. Pull or serve that model, or name one it has",
                        baseUrl,
                        model,
                        check.models().stream().limit(20).toList());
            } else {
                log.info("The chat model server at {} serves the model '{}'", baseUrl, model);
            }
        });
    }

    Check check() {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/models"))
                .timeout(TIMEOUT)
                .GET();
        if (apiKey != null && !apiKey.isBlank() && !apiKey.equals("none")) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | IllegalArgumentException e) {
            return new Check(
                    false,
                    List.of(),
                    e.getClass().getSimpleName()
                            + Optional.ofNullable(e.getMessage())
                                    .map(m -> ": " + ModelServerMessage.clean(m, null))
                                    .orElse(""));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Check(false, List.of(), "interrupted");
        }
        if (response.statusCode() != 200) {
            return new Check(
                    false,
                    List.of(),
                    "HTTP " + response.statusCode() + ": " + ModelServerMessage.clean(response.body(), null));
        }
        return new Check(true, listed(response.body()), null);
    }

    /** The ids the server lists (OpenAI's data[].id), with llama.cpp's aliases. */
    private static List<String> listed(String body) {
        List<String> models = new ArrayList<>();
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (RuntimeException e) {
            return models;
        }
        for (JsonNode entry : json.path("data")) {
            if (entry.path("id").isString()) {
                models.add(entry.path("id").asString());
            }
            entry.path("aliases").forEach(alias -> models.add(alias.asString()));
        }
        return models.stream().distinct().toList();
    }

    private static String stripSlash(String url) {
        return url == null ? "" : url.replaceFirst("/+$", "");
    }
}
