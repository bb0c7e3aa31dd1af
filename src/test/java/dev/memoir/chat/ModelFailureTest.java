package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class ModelFailureTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString();

    @Test
    void aModelErrorIs502AndTheUserTurnStaysStored() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        String message = "Tell me a story " + tag;
        onModelCall(call -> call.mentions(tag), call -> Answer.error(500));

        Api.Response reply = api.chat(key, session, message);

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.text("code")).isEqualTo("model-error");
        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        assertThat(turns).hasSize(1);
        assertThat(turns.get(0).path("content").asString()).isEqualTo(message);
        assertThat(turns.get(0).path("role").asString()).isEqualTo("user");
    }

    @Test
    void anOverloadedModelIs503() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        onModelCall(call -> call.mentions(tag), call -> Answer.error(429));

        Api.Response reply = api.chat(key, session, "Hi " + tag);

        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.text("code")).isEqualTo("model-unavailable");
    }

    @Test
    void aModelThatDoesNotAnswerInTimeIs504TheUserTurnStaysStoredAndTheRequestIsNotSentAgain() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.delayed(Duration.ofSeconds(5), "{\"reply\": \"too late\", \"remember\": false}"));

        Api.Response reply = api.chat(key, session, "Are you there? " + tag);

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.text("code")).isEqualTo("model-timeout");
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).hasSize(1);
        // Not sent again: the server may still be reading the prompt that timed out.
        assertThat(fake.calls(call -> call.is(Step.REPLY) && call.mentions(tag)))
                .hasSize(1);
    }

    @Test
    void aReplyThatIsNotTheAskedJsonIs502AndOnlyTheUserTurnIsStored() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.content("Sure! Here is my answer without any JSON."));

        Api.Response reply = api.chat(key, session, "Explain JSON " + tag);

        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.text("code")).isEqualTo("model-unusable-answer");
        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        assertThat(turns).hasSize(1);
        assertThat(turns.get(0).path("role").asString()).isEqualTo("user");
    }

    @Test
    void anEmptyTruncatedOrSchemaBreakingReplyIs502() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        for (String bad : new String[] {
            "", "{\"reply\": \"trunc", "{\"remember\": true, \"citations\": []}", "{\"reply\": {\"text\": \"nested\"}}"
        }) {
            String marker = UUID.randomUUID().toString();
            onModelCall(call -> call.is(Step.REPLY) && call.mentions(marker), call -> Answer.content(bad));

            Api.Response reply = api.chat(key, session, "Hello " + marker);

            assertThat(reply.status()).as(bad).isEqualTo(502);
            assertThat(reply.text("code")).as(bad).isEqualTo("model-unusable-answer");
        }
        assertThat(api.get(key, "/sessions/" + session).body().path("turns"))
                .hasSize(4)
                .allSatisfy(turn -> assertThat(turn.path("role").asString()).isEqualTo("user"));
    }

    @Test
    void citationsBeyondAnIntDoNotBreakTheReply() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json(
                        "{\"reply\": \"Fine.\", \"remember\": false, \"citations\": [2147483648, 99999999999999999999]}"));

        Api.Response reply = api.chat(key, session, "Hi " + tag);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text("reply")).isEqualTo("Fine.");
    }

    @Test
    void aMalformedConditionalAnswerIsRetriedUntilTheModelAnswersUsably() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        AtomicInteger attempts = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": true}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(tag),
                call -> switch (attempts.incrementAndGet()) {
                    case 1 -> Answer.content("{\"context\": \"trunc");
                    case 2 -> Answer.content("{\"context\": \"NaN\", \"summary\": \"no note field\"}");
                    default ->
                        Answer.json("{\"context\": \"NaN\", \"summary\": \"Units.\", \"note\": \"Use metric.\"}");
                });

        Api.Response reply = api.chat(key, session, "I prefer metric units " + tag);

        assertThat(reply.body().path("remembered").asBoolean()).isTrue();
        eventually()
                .until(() ->
                        ofKind(api.get(key, "/memory?userId=u"), "conditional").size() == 1);
        assertThat(attempts.get()).isEqualTo(3);
        assertThat(ofKind(api.get(key, "/memory?userId=u"), "conditional")
                        .getFirst()
                        .path("text")
                        .asString())
                .isEqualTo("Context: Units.\nNote: Use metric.");
    }

    @Test
    void anEmptySummaryIsRetriedNotTakenAsDone() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"strategy\": \"conditional+summary\"}");
        AtomicInteger attempts = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions(tag),
                call -> attempts.incrementAndGet() == 1
                        ? Answer.content("  ")
                        : Answer.sessionSummary("They met " + tag));
        api.importTurns(key, session, "We met at the lake " + tag, "Nice.");

        api.close(key, session);

        eventually()
                .until(() -> ofKind(api.get(key, "/memory?userId=u"), "summary").size() == 1);
        assertThat(attempts.get()).isEqualTo(2);
    }

    @Test
    void aJobThatFailsOnEveryRetryWaitsInTheDeadLetterListUntilTheOperatorRunsItAgain() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        AtomicInteger attempts = new AtomicInteger();
        AtomicBoolean healthy = new AtomicBoolean();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": true}"));
        onModelCall(call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(tag), call -> {
            attempts.incrementAndGet();
            return healthy.get()
                    ? Answer.json("{\"context\": \"NaN\", \"summary\": \"S.\", \"note\": \"Kept.\"}")
                    : Answer.content("I cannot answer in JSON.");
        });

        String userTurnId =
                api.chat(key, session, "Remember my shoe size " + tag).text("userTurnId");

        eventually().atMost(Duration.ofSeconds(30)).until(() -> failedJob(userTurnId) != null);
        JsonNode failed = failedJob(userTurnId);
        assertThat(failed.path("task").asString()).isEqualTo("conditional-memory");
        assertThat(failed.path("failures").asInt()).isEqualTo(attempts.get()).isGreaterThan(1);
        assertThat(failed.path("lastError").asString())
                .contains("model-unusable-answer")
                .doesNotContain("shoe size");
        assertThat(api.get(Api.BOOTSTRAP_KEY, "/actuator/metrics/memoir.jobs.failed")
                        .body()
                        .path("measurements")
                        .get(0)
                        .path("value")
                        .asDouble())
                .isGreaterThanOrEqualTo(1.0);
        assertThat(ofKind(api.get(key, "/memory?userId=u"), "conditional")).isEmpty();
        assertThat(api.send("POST", "/admin/jobs/failed/conditional-memory/" + userTurnId + "/retry", key, null)
                        .status())
                .as("a tenant key cannot rerun jobs")
                .isEqualTo(401);

        healthy.set(true);
        assertThat(api.send(
                                "POST",
                                "/admin/jobs/failed/conditional-memory/" + userTurnId + "/retry",
                                Api.BOOTSTRAP_KEY,
                                null)
                        .status())
                .isEqualTo(202);

        eventually()
                .until(() ->
                        ofKind(api.get(key, "/memory?userId=u"), "conditional").size() == 1);
        assertThat(failedJob(userTurnId)).isNull();
        assertThat(api.send(
                                "POST",
                                "/admin/jobs/failed/conditional-memory/" + userTurnId + "/retry",
                                Api.BOOTSTRAP_KEY,
                                null)
                        .status())
                .isEqualTo(404);
    }

    private JsonNode failedJob(String instance) {
        for (JsonNode job :
                api.get(Api.BOOTSTRAP_KEY, "/admin/jobs/failed").body().path("items")) {
            if (job.path("instance").asString().equals(instance)) {
                return job;
            }
        }
        return null;
    }

    @Test
    void aFailedMemoryJobIsRetriedAndThenWritesItsMemoryOnce() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        AtomicInteger attempts = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": true}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(tag),
                call -> attempts.incrementAndGet() <= 2
                        ? Answer.error(500)
                        : Answer.json("{\"context\": \"NaN\", \"summary\": \"Units.\", \"note\": \"Use metric.\"}"));

        api.chat(key, session, "I prefer metric units " + tag);

        eventually()
                .until(() ->
                        ofKind(api.get(key, "/memory?userId=u"), "conditional").size() == 1);
        assertThat(attempts.get()).isEqualTo(3);
        assertThat(ofKind(api.get(key, "/memory?userId=u"), "conditional")
                        .getFirst()
                        .path("text")
                        .asString())
                .isEqualTo("Context: Units.\nNote: Use metric.");
    }
}
