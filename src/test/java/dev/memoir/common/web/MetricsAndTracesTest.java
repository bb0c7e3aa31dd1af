package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import dev.memoir.support.Api;
import dev.memoir.support.CapturedSpans;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

/**
 * Metrics for Prometheus and traces for OpenTelemetry: what an operator scrapes and what a trace of a chat turn, a
 * job and an import holds, and that no span carries what a user said or who the user is.
 */
class MetricsAndTracesTest extends IntegrationTest {

    @Autowired
    CapturedSpans spans;

    @Autowired
    ApplicationContext context;

    private final String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    /** Words of the user's message that appear nowhere else: none of them may reach a span. */
    private final String marker = "zorbleglimp" + tag;

    private final String message = "My parrot " + marker + " recites limericks at breakfast";
    private final List<String> usersWords = List.of(marker, "parrot", "recites", "limericks", "breakfast");
    private final String userId = "wanda-" + tag;
    /**
     * The client's trace, which the chat requests continue (W3C trace context): their spans are told from those of
     * work left running by earlier test classes, such as their jobs and abandoned streams.
     */
    private final String clientTrace = UUID.randomUUID().toString().replace("-", "");

    private final String traceparent = "00-" + clientTrace + "-" + clientTrace.substring(0, 16) + "-01";

    @BeforeEach
    void capture() {
        spans.start();
    }

    @AfterEach
    void stopCapturing() {
        spans.stop();
    }

    @Test
    void theOperatorScrapesMemoirsAndSpringAisMetricsInPrometheusFormatAndNobodyElseCan() {
        String key = api.newTenant();
        chatAndAwaitTheConditionalNote(key, api.newSession(key, userId, null));

        HttpResponse<String> scrape = api.sendWithHeaders("GET", "/actuator/prometheus", Api.BOOTSTRAP_KEY, null);

        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type"))
                .hasValueSatisfying(
                        type -> assertThat(type).startsWith("text/plain").contains("version=0.0.4"));
        List<String> series =
                scrape.body().lines().filter(line -> !line.startsWith("#")).toList();
        assertThat(series)
                .as("Memoir's observations")
                .anySatisfy(seriesOf("memoir_memory_search_seconds_count", "memoir_search_mode=\"hybrid\""))
                .anySatisfy(seriesOf(
                        "memoir_embedding_seconds_count",
                        "memoir_embedding_purpose=\"query\"",
                        "memoir_embedding_model=\"bge-small-en-v1.5\""))
                .anySatisfy(seriesOf("memoir_model_step_seconds_count", "memoir_model_step=\"reply\""))
                .anySatisfy(seriesOf(
                        "memoir_job_seconds_count",
                        "memoir_job_task=\"conditional-memory\"",
                        "memoir_job_outcome=\"success\""))
                .anySatisfy(seriesOf("memoir_model_calls_total", "step=\"reply\""));
        assertThat(series)
                .as("Spring AI's GenAI metrics")
                .anySatisfy(seriesOf(
                        "gen_ai_client_operation_seconds_count",
                        "gen_ai_operation_name=\"chat\"",
                        "gen_ai_request_model=\"" + FakeOpenAiServer.MODEL + "\""))
                .anySatisfy(seriesOf("gen_ai_client_token_usage_total", "gen_ai_token_type=\"input\""))
                .anySatisfy(seriesOf("gen_ai_client_token_usage_total", "gen_ai_token_type=\"output\""));
        assertThat(scrape.body()).doesNotContain(marker).doesNotContain(userId).doesNotContain(key);

        assertThat(api.sendWithHeaders("GET", "/actuator/prometheus", null, null)
                        .statusCode())
                .isEqualTo(401);
        assertThat(api.sendWithHeaders("GET", "/actuator/prometheus", key, null).statusCode())
                .isEqualTo(401);
        assertThat(spans.finished())
                .as("scrapes are not traced")
                .isNotEmpty()
                .noneMatch(span -> attribute(span, "uri").startsWith("/actuator"));
    }

    @Test
    void nothingIsPushedOverOtlpUntilAnEndpointIsConfigured() {
        assertThat(context.getBeanNamesForType(OtlpMeterRegistry.class))
                .as("OTLP metrics push")
                .isEmpty();
        assertThat(context.getBeanNamesForType(OtlpHttpSpanExporter.class))
                .as("OTLP span export")
                .isEmpty();
        assertThat(context.getBeanNamesForType(OtlpGrpcSpanExporter.class))
                .as("OTLP span export")
                .isEmpty();
        assertThat(context.getBeanNamesForType(PrometheusMeterRegistry.class)).hasSize(1);
    }

    @Test
    void aChatTurnIsOneTraceFromTheRequestThroughSearchAndEmbeddingToTheModelStepAndItsGenAiCall() {
        String key = api.newTenant();
        chatAndAwaitTheConditionalNote(key, api.newSession(key, userId, null));

        List<SpanData> captured = eventually()
                .until(
                        spans::finished,
                        found -> found.stream()
                                .anyMatch(job("conditional-memory").and(succeeded())));
        List<SpanData> turn = inTrace(captured, clientTrace);
        SpanData request = only(turn, server("/chat"));
        assertThat(request.getParentSpanId()).as("the client's span").isEqualTo(clientTrace.substring(0, 16));

        assertThat(turn)
                .filteredOn(named("memoir.memory.search"))
                .isNotEmpty()
                .allSatisfy(search ->
                        assertThat(attribute(search, "memoir.search.mode")).isEqualTo("hybrid"));
        assertThat(turn).filteredOn(named("memoir.embedding")).isNotEmpty().allSatisfy(embedding -> {
            assertThat(attribute(embedding, "memoir.embedding.model")).isEqualTo("bge-small-en-v1.5");
            assertThat(attribute(embedding, "memoir.embedding.purpose")).isIn("query", "document");
        });
        assertThat(turn)
                .anyMatch(s -> s.getName().equals("memoir.embedding")
                        && attribute(s, "memoir.embedding.purpose").equals("query"));
        SpanData reply = only(turn, step("reply"));
        assertThat(descends(reply, request, turn))
                .as("the reply step is part of the request")
                .isTrue();
        assertGenAiChildOf(reply, captured);

        // The job's id is on no span, so the run shown is any conditional-memory job's that succeeded: this one's,
        // unless another test's ran meanwhile, which shows the same.
        SpanData job = captured.stream()
                .filter(job("conditional-memory").and(succeeded()))
                .findFirst()
                .orElseThrow();
        assertThat(job.getParentSpanContext().isValid())
                .as("a job is a trace of its own")
                .isFalse();
        assertGenAiChildOf(only(inTrace(captured, job.getTraceId()), step("conditional-memory")), captured);

        assertNoSpanSaysAnyOf(captured, usersWords);
        assertNoSpanSaysAnyOf(captured, List.of(message, userId));
    }

    @Test
    void aStreamedReplysModelCallBelongsToTheTraceOfItsRequest() {
        String key = api.newTenant();
        String session = api.newSession(key, userId, null);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(marker),
                call -> Answer.json("{\"reply\": \"Noted, and a fine bird it is.\", \"remember\": false}"));

        HttpResponse<String> streamed = api.sendWithHeaders(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", message),
                "Accept",
                "text/event-stream",
                "traceparent",
                traceparent);

        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.body()).contains("fine bird");
        List<SpanData> captured = eventually()
                .until(
                        spans::finished,
                        found -> inTrace(found, clientTrace).stream().anyMatch(server("/chat")));
        List<SpanData> turn = inTrace(captured, clientTrace);
        SpanData request = only(turn, server("/chat"));
        SpanData reply = only(turn, step("reply"));
        assertThat(descends(reply, request, turn)).isTrue();
        SpanData call = assertGenAiChildOf(reply, captured);
        assertThat(call.getAttributes().asMap()).containsKey(AttributeKey.stringKey("gen_ai.usage.output_tokens"));
        assertNoSpanSaysAnyOf(captured, usersWords);
        assertNoSpanSaysAnyOf(captured, List.of(message, userId));
    }

    @Test
    void importsAndExportsAreSpansThatNameWhatMovedButNeitherTheUserNorTheWordsNorWhyARefusalFailed() {
        String key = api.newTenant();
        String session = api.newSession(key, userId, null);
        assertThat(api.importTurns(key, session, message, "What a talented " + marker)
                        .status())
                .isEqualTo(201);
        HttpResponse<String> export = api.sendWithHeaders("GET", "/users/" + userId + "/export", key, null);
        assertThat(export.statusCode()).isEqualTo(200);
        String movedUser = "moved-" + userId;
        assertThat(importArchive(key, movedUser, export.body()).status()).isEqualTo(201);

        Api.Response refused = importArchive(key, userId, export.body());

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.raw()).as("the client is told which user").contains(userId);
        List<SpanData> captured = eventually()
                .until(
                        spans::finished,
                        found -> found.stream().filter(named("memoir.import")).count() == 3
                                && found.stream().anyMatch(named("memoir.export")));
        assertThat(captured)
                .filteredOn(named("memoir.import"))
                .extracting(s -> attribute(s, "memoir.import.what"))
                .containsExactlyInAnyOrder("turns", "user-archive", "user-archive");
        assertThat(only(captured, named("memoir.export")).getAttributes().asMap())
                .containsEntry(AttributeKey.stringKey("memoir.export.what"), "user-archive");
        SpanData failed = captured.stream()
                .filter(named("memoir.import"))
                .filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR)
                .findFirst()
                .orElseThrow();
        assertThat(failed.getEvents()).singleElement().satisfies(event -> {
            assertThat(event.getName()).isEqualTo("exception");
            assertThat(event.getAttributes().asMap()).containsOnlyKeys(AttributeKey.stringKey("exception.type"));
        });
        assertThat(failed.getStatus().getDescription()).isEmpty();
        assertThat(captured).filteredOn(server("/users/{userId}/import")).hasSize(2);
        assertNoSpanSaysAnyOf(captured, usersWords);
        assertNoSpanSaysAnyOf(captured, List.of(userId, "wanda"));
    }

    private void chatAndAwaitTheConditionalNote(String key, String session) {
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(marker),
                call -> Answer.json("{\"reply\": \"Noted.\", \"remember\": true}"));
        Api.Response reply = api.sendWithHeadersAsResponse(
                "POST",
                "/chat",
                key,
                Json.object("sessionId", session, "message", message),
                "traceparent",
                traceparent);
        assertThat(reply.status()).isEqualTo(200);
        eventually()
                .until(() -> ofKind(api.get(key, "/memory?userId=" + userId), "conditional")
                                .size()
                        == 1);
    }

    private Api.Response importArchive(String key, String user, String archive) {
        return api.sendWithHeadersAsResponse(
                "POST", "/users/" + user + "/import", key, archive, "Content-Type", "application/x-ndjson");
    }

    /** The GenAI span of the step's model call: a child of the step, following the semantic conventions. */
    private static SpanData assertGenAiChildOf(SpanData step, List<SpanData> spans) {
        SpanData call = only(
                spans,
                s -> s.getParentSpanId().equals(step.getSpanId())
                        && s.getName().equals("chat " + FakeOpenAiServer.MODEL));
        assertThat(attribute(call, "gen_ai.operation.name")).isEqualTo("chat");
        assertThat(attribute(call, "gen_ai.request.model")).isEqualTo(FakeOpenAiServer.MODEL);
        assertThat(attribute(call, "gen_ai.response.model")).isEqualTo(FakeOpenAiServer.MODEL);
        assertThat(Long.parseLong(attribute(call, "gen_ai.usage.input_tokens"))).isPositive();
        assertThat(Long.parseLong(attribute(call, "gen_ai.usage.output_tokens")))
                .isPositive();
        return call;
    }

    private static void assertNoSpanSaysAnyOf(List<SpanData> spans, List<String> words) {
        List<String> said = new ArrayList<>();
        for (SpanData span : spans) {
            said.add(span.getName());
            said.add(span.getStatus().getDescription());
            span.getAttributes().forEach((name, value) -> said.add(name.getKey() + "=" + value));
            for (EventData event : span.getEvents()) {
                said.add(event.getName());
                event.getAttributes().forEach((name, value) -> said.add(name.getKey() + "=" + value));
            }
        }
        assertThat(said).as("span names, attributes, events and statuses").isNotEmpty();
        for (String word : words) {
            assertThat(said)
                    .as("spans saying " + word)
                    .noneMatch(text -> text.toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)));
        }
    }

    private static boolean descends(SpanData span, SpanData ancestor, List<SpanData> spans) {
        Map<String, SpanData> byId = new HashMap<>();
        spans.forEach(s -> byId.put(s.getSpanId(), s));
        for (SpanData at = span; at != null; at = byId.get(at.getParentSpanId())) {
            if (at.getParentSpanId().equals(ancestor.getSpanId())) {
                return true;
            }
        }
        return false;
    }

    private static List<SpanData> inTrace(List<SpanData> spans, String traceId) {
        return spans.stream().filter(span -> span.getTraceId().equals(traceId)).toList();
    }

    private static SpanData only(List<SpanData> spans, Predicate<SpanData> which) {
        List<SpanData> found = spans.stream().filter(which).toList();
        assertThat(found).as("spans matching").hasSize(1);
        return found.getFirst();
    }

    private static String attribute(SpanData span, String key) {
        return Optional.ofNullable(span.getAttributes().get(AttributeKey.stringKey(key)))
                .orElse("");
    }

    private static Predicate<SpanData> named(String name) {
        return span -> span.getName().equals(name);
    }

    private static Predicate<SpanData> server(String uri) {
        return span ->
                span.getKind() == SpanKind.SERVER && attribute(span, "uri").equals(uri);
    }

    private static Predicate<SpanData> step(String name) {
        return span -> span.getName().equals("memoir.model.step")
                && attribute(span, "memoir.model.step").equals(name);
    }

    private static Predicate<SpanData> succeeded() {
        return span -> attribute(span, "memoir.job.outcome").equals("success");
    }

    private static Predicate<SpanData> job(String task) {
        return span -> span.getName().equals("memoir.job")
                && attribute(span, "memoir.job.task").equals(task);
    }

    private static Consumer<String> seriesOf(String name, String... labels) {
        return line -> {
            assertThat(line).startsWith(name + "{");
            for (String label : labels) {
                assertThat(line).contains(label);
            }
        };
    }
}
