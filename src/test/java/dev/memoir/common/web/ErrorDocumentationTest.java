package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** Swagger must describe errors as the server sends them, so that generated clients can read them. */
class ErrorDocumentationTest extends IntegrationTest {

    private JsonNode apiDocs() {
        return api.get(null, "/v3/api-docs").body();
    }

    private static List<Map.Entry<String, JsonNode>> operations(JsonNode docs) {
        List<Map.Entry<String, JsonNode>> operations = new ArrayList<>();
        docs.path("paths")
                .properties()
                .forEach(path -> path.getValue()
                        .properties()
                        .forEach(method -> operations.add(
                                Map.entry(method.getKey().toUpperCase() + " " + path.getKey(), method.getValue()))));
        return operations;
    }

    @Test
    void everyErrorResponseIsDocumentedAsAProblemDetailOrOpenAiError() {
        List<Map.Entry<String, JsonNode>> operations = operations(apiDocs());
        assertThat(operations).hasSizeGreaterThan(15);

        for (Map.Entry<String, JsonNode> operation : operations) {
            boolean openAi = operation.getKey().contains(" /v1/");
            operation.getValue().path("responses").properties().forEach(response -> {
                if (Integer.parseInt(response.getKey()) < 400) {
                    return;
                }
                JsonNode content = response.getValue().path("content");
                String mediaType = openAi ? "application/json" : "application/problem+json";
                assertThat(content.properties())
                        .as(operation.getKey() + " " + response.getKey())
                        .hasSize(1);
                assertThat(content.path(mediaType).path("schema").path("$ref").asString())
                        .as(operation.getKey() + " " + response.getKey())
                        .isEqualTo(openAi ? "#/components/schemas/OpenAiError" : "#/components/schemas/Problem");
            });
        }
    }

    @Test
    void everyOperationDocumentsTheMissingKeyAnswer() {
        for (Map.Entry<String, JsonNode> operation : operations(apiDocs())) {
            assertThat(operation.getValue().path("responses").has("401"))
                    .as(operation.getKey())
                    .isTrue();
        }
    }

    @Test
    void theProblemSchemaHasTheStableCodeAndTheFieldErrors() {
        JsonNode problem = apiDocs().path("components").path("schemas").path("Problem");

        assertThat(problem.path("properties").has("code")).isTrue();
        assertThat(problem.path("properties")
                        .path("errors")
                        .path("items")
                        .path("$ref")
                        .asString())
                .isEqualTo("#/components/schemas/FieldError");
    }

    @Test
    void theExamplesAskForTheDefaultStrategyAndNoReasoning() {
        JsonNode schemas = apiDocs().path("components").path("schemas");

        assertThat(schemas.path("SessionCreate")
                        .path("properties")
                        .path("memory")
                        .path("example")
                        .toString())
                .contains("multi-view");
        assertThat(schemas.path("ChatRequest")
                        .path("properties")
                        .path("reasoning")
                        .path("example")
                        .asBoolean(true))
                .isFalse();
    }
}
