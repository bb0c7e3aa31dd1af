package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.memoir.common.web.Observed;
import dev.memoir.support.FakeOpenAiServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every model step of the application, found as the {@link ModelStep} constants in the main code: each has its own
 * template, a schema the provider's strict mode accepts, and every request made for it, asked, asked leniently or
 * streamed, names it in the {@value ModelStep#HEADER} header that the test fake dispatches on.
 */
class ModelStepsTest {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(\\w+)}}");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final FakeOpenAiServer fake = FakeOpenAiServer.instance();

    @Test
    void eachStepHasATemplateOfItsOwnAndEachTemplateAStep() throws Exception {
        List<ModelStep<?>> steps = DeclaredSteps.all();

        Set<String> names = steps.stream().map(ModelStep::name).collect(Collectors.toSet());
        assertThat(names).hasSameSizeAs(steps);
        Resource[] templates = new PathMatchingResourcePatternResolver().getResources("classpath:prompts/*.md");
        assertThat(Arrays.stream(templates).map(t -> t.getFilename().replaceFirst("\\.md$", "")))
                .containsExactlyInAnyOrderElementsOf(names);
    }

    @Test
    void structuredStepsAskForAnObjectStrictModeAccepts() {
        List<ModelStep<?>> structured =
                DeclaredSteps.all().stream().filter(ModelStep::structured).toList();

        assertThat(structured).isNotEmpty();
        for (ModelStep<?> step : structured) {
            JsonNode schema = JSON.readTree(step.schema(numbersFor(step.jsonSchema())));
            assertThat(schema.path("type").asString("")).as(step.name()).isEqualTo("object");
            assertStrict(step.name(), schema);
        }
    }

    @Test
    void everyRequestNamesItsStepAndIsCountedUnderItsLabel() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        OpenAiChatModel chatModel = OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder()
                        .baseUrl(fake.baseUrl())
                        .apiKey("test-key")
                        .model(FakeOpenAiServer.MODEL)
                        .maxRetries(0)
                        .build())
                .build();
        ModelProperties properties = new ModelProperties(
                FakeOpenAiServer.CONTEXT_TOKENS, 1024, 1.25, 1_000_000, 1_000_000, 0, Duration.ofMillis(10));
        TokenCounter tokens = new TokenCounter();
        PromptTemplates templates = new PromptTemplates();
        ChatModelClient client = new ChatModelClient(
                chatModel,
                new ContextWindow(properties, tokens, templates, chatModel, Duration.ofSeconds(5)),
                templates,
                tokens,
                properties,
                meters,
                new Observed(ObservationRegistry.NOOP),
                List.of(),
                List.of());

        for (ModelStep<?> step : DeclaredSteps.all()) {
            String marker = "probe-" + UUID.randomUUID();
            Map<String, String> values = valuesFor(step, marker);
            Map<String, String> numbers = step.structured() ? numbersFor(step.jsonSchema()) : Map.of();
            ignoringUnusableAnswers(() -> client.ask(step, values));
            ignoringUnusableAnswers(() -> client.askOrEmpty(step, values));
            ignoringUnusableAnswers(() -> client.stream(step, List.of(new UserMessage(marker)), numbers, piece -> {}));

            List<FakeOpenAiServer.ChatCall> calls = fake.calls(call -> call.mentions(marker));
            assertThat(calls).as(step.name()).hasSize(3);
            assertThat(calls).as(step.name()).allSatisfy(call -> {
                assertThat(call.stepTag()).isEqualTo(step.name());
                assertThat(call.step()).isNotEqualTo(FakeOpenAiServer.Step.OTHER);
            });
            assertThat(meters.counter("memoir.model.calls", "step", step.label(), "outcome", "success")
                            .count())
                    .as(step.name())
                    .isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void theFakeRefusesARequestThatNamesNoStep() throws Exception {
        int before = fake.untaggedRequests().size();
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder()
                                .uri(URI.create(fake.baseUrl() + "/chat/completions"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model": "fake-model", "messages": [{"role": "user", "content": "Who am I?"}]}"""))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains(ModelStep.HEADER);
        assertThat(fake.untaggedRequests()).hasSize(before + 1);
    }

    /** A number for each placeholder of a schema. */
    static Map<String, String> numbersFor(String schema) {
        Map<String, String> values = new HashMap<>();
        Matcher placeholders = PLACEHOLDER.matcher(schema);
        while (placeholders.find()) {
            values.put(placeholders.group(1), placeholders.group(1).equals("first") ? "0" : "3");
        }
        return values;
    }

    /** A value for each of the template's and the schema's placeholders, each text carrying the marker. */
    private static Map<String, String> valuesFor(ModelStep<?> step, String marker) {
        String template;
        try {
            template =
                    new ClassPathResource("prompts/" + step.name() + ".md").getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, String> values = new HashMap<>();
        Matcher placeholders = PLACEHOLDER.matcher(template);
        while (placeholders.find()) {
            values.put(placeholders.group(1), marker);
        }
        if (step.structured()) {
            values.putAll(numbersFor(step.jsonSchema()));
        }
        return values;
    }

    /**
     * The keywords OpenAI's strict structured outputs take, and llama.cpp's, Ollama's and vLLM's constrained
     * decoding honour. Not minLength, maxLength or pattern: strict mode refuses them, or a server applies them to the
     * JSON text rather than the string.
     */
    private static final Set<String> PORTABLE_KEYWORDS = Set.of(
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
            "description",
            "minItems",
            "maxItems",
            "minimum",
            "maximum");

    /**
     * OpenAI's strict structured outputs: objects list every property as required and allow no others, and every
     * keyword is one every server takes.
     */
    private static void assertStrict(String step, JsonNode schema) {
        if (schema.isArray()) {
            schema.forEach(item -> assertStrict(step, item));
            return;
        }
        if (!schema.isObject()) {
            return;
        }
        assertThat(PORTABLE_KEYWORDS)
                .as(step + ": keywords")
                .containsAll(schema.propertyNames().stream()
                        .filter(name ->
                                !schema.path("type").asString("").equals("object") || !name.equals("properties"))
                        .toList());
        if (schema.path("type").asString("").equals("object")) {
            List<String> properties = new ArrayList<>(schema.path("properties").propertyNames());
            List<String> required = new ArrayList<>();
            schema.path("required").forEach(name -> required.add(name.asString()));
            assertThat(required).as(step + ": required").containsExactlyInAnyOrderElementsOf(properties);
            assertThat(schema.path("additionalProperties").isBoolean()
                            && !schema.path("additionalProperties").booleanValue())
                    .as(step + ": additionalProperties")
                    .isTrue();
        }
        for (String name : schema.propertyNames()) {
            if (name.equals("properties")) {
                schema.path("properties").forEach(property -> assertStrict(step, property));
            } else if (name.equals("items")) {
                assertStrict(step, schema.path("items"));
            }
        }
    }

    private static void ignoringUnusableAnswers(Runnable call) {
        try {
            call.run();
        } catch (ModelCallException e) {
            // The fake's default answer to a probe need not be one the step can use: only the request matters.
        }
    }
}
