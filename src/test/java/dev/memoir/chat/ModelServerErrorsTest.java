package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * A model server's refusal reaches the person who can act on it: its own message in the 502's detail, in a job's
 * last error and in one log line per attempt; transient failures are tried again after a backoff, a timeout is
 * not sent again at once.
 */
@ExtendWith(OutputCaptureExtension.class)
class ModelServerErrorsTest extends IntegrationTest {

    private static final String NOT_PULLED =
            "{\"error\":{\"message\":\"model \\\"llama3.1\\\" not found, try pulling it "
                    + "first\",\"type\":\"api_error\",\"param\":null,\"code\":null}}";

    private final String tag = UUID.randomUUID().toString();

    @Test
    void theServersOwnMessageIsInTheProblemDetailAndTheLogHasOneLineAndNoStackPerAttempt(CapturedOutput output) {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(tag), call -> Answer.error(404, NOT_PULLED));

        Api.Response reply = api.chat(key, session, "Hello " + tag);

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.text("code")).isEqualTo("model-error");
        assertThat(reply.text("detail"))
                .isEqualTo("The chat model failed during reply: the model server answered "
                        + "HTTP 404: model \"llama3.1\" not found, try pulling it first");
        // A 404 is not sent again: the model will not appear by itself.
        assertThat(fake.calls(call -> call.mentions(tag))).hasSize(1);
        assertThat(output.getAll())
                .contains("Model call for reply failed (attempt 1 of 3): model-error")
                .doesNotContain("com.openai.errors.NotFoundException");
    }

    @Test
    void aJobsLastErrorCarriesTheServersMessage() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"strategy\": \"conditional+summary\"}");
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions(tag),
                call -> Answer.error(
                        400,
                        "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available "
                                + "context size, try increasing it\",\"type\":\"exceed_context_size_error\"}}"));
        api.importTurns(key, session, "We met at the lake " + tag, "Nice.");

        api.close(key, session);

        JsonNode job = eventually()
                .until(
                        () -> summaryJob(key, session),
                        candidate ->
                                candidate != null && candidate.path("failures").asInt() > 0);
        assertThat(job.path("lastError").asString())
                .contains("model-error")
                .contains("HTTP 400: the request exceeds the available context size, try increasing it")
                .doesNotContain("lake");
    }

    @Test
    void aServerMessageQuotingThePromptLeavesTheUsersWordsOut() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        String secret = "my secret diary entry about the zanzibar trip " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.error(
                        422,
                        "{\"error\":{\"message\":\"Invalid input: '" + secret
                                + "' is not allowed\",\"type\":\"invalid\"}}"));

        Api.Response reply = api.chat(key, session, secret);

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.text("detail"))
                .contains("HTTP 422: Invalid input: '[…]' is not allowed")
                .doesNotContain("zanzibar");
    }

    @Test
    void anOverloadedServerIsAskedAgainAfterItsRetryAfterAndItsAnswerUsed() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        AtomicInteger attempts = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> attempts.incrementAndGet() <= 2
                        ? Answer.overloaded(1)
                        : Answer.json("{\"reply\": \"Here now.\", \"remember\": false, \"citations\": []}"));

        Api.Response reply = api.chat(key, session, "Are you there? " + tag);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text("reply")).isEqualTo("Here now.");
        var calls = fake.calls(call -> call.mentions(tag));
        assertThat(calls).hasSize(3);
        for (int i = 1; i < calls.size(); i++) {
            assertThat(Duration.between(
                            calls.get(i - 1).receivedAt(), calls.get(i).receivedAt()))
                    .as("the wait before attempt %d", i + 1)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(950));
        }
    }

    @Test
    void aServerThatStaysOverloadedIs503WithItsRetryAfter() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(tag), call -> Answer.overloaded(2));

        var response =
                api.sendWithHeaders("POST", "/chat", key, Json.object("sessionId", session, "message", "Hi " + tag));

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
        assertThat(fake.calls(call -> call.mentions(tag))).hasSize(3);
    }

    @Test
    void theFakeRefusesAnotherModelAsOllamaDoes() throws Exception {
        var response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder()
                                .uri(URI.create(fake.baseUrl() + "/chat/completions"))
                                .header("Content-Type", "application/json")
                                .header("X-Memoir-Step", "reply")
                                .POST(HttpRequest.BodyPublishers.ofString(Json.object(
                                        "model",
                                        "gpt-5-mini",
                                        "max_tokens",
                                        10,
                                        "messages",
                                        List.of(Json.fields("role", "user", "content", "Hi " + tag)))))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("model \\\"gpt-5-mini\\\" not found, try pulling it first");
        assertThat(fake.refusedRequests()).last().asString().contains("gpt-5-mini");
        // This test provoked the refusal itself.
        forgetProvokedRequests();
    }

    private JsonNode summaryJob(String key, String session) {
        for (JsonNode job : api.get(key, "/sessions/" + session).body().path("jobs")) {
            if (job.path("task").asString().equals("session-summary")) {
                return job;
            }
        }
        return null;
    }
}
