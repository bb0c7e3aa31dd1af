package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
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
    void aModelThatDoesNotAnswerInTimeIs504AndTheUserTurnStaysStored() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", "{\"reflectionRounds\": 0}");
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.delayed(Duration.ofSeconds(5), "{\"reply\": \"too late\", \"remember\": false}"));

        Api.Response reply = api.chat(key, session, "Are you there? " + tag);

        assertThat(reply.status()).isEqualTo(504);
        assertThat(reply.text("code")).isEqualTo("model-timeout");
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).hasSize(1);
    }

    @Test
    void aReplyThatIsNotTheAskedJsonIsStillGivenAndNothingIsRemembered() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.content("Sure! Here is my answer without any JSON."));

        Api.Response reply = api.chat(key, session, "Explain JSON " + tag);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text("reply")).isEqualTo("Sure! Here is my answer without any JSON.");
        assertThat(reply.body().path("remembered").asBoolean()).isFalse();
    }

    @Test
    void aMalformedConditionalAnswerWritesNoMemoryAndDoesNotRetry() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": true}"));
        onModelCall(call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(tag),
                call -> Answer.content("{\"context\": \"trunc"));

        Api.Response reply = api.chat(key, session, "I prefer metric units " + tag);

        assertThat(reply.body().path("remembered").asBoolean()).isTrue();
        eventually().until(() -> fake.calls(c -> c.is(Step.CONDITIONAL_MEMORY) && c.mentions(tag)).size() == 1);
        eventually().during(Duration.ofSeconds(2)).until(() ->
                fake.calls(c -> c.is(Step.CONDITIONAL_MEMORY) && c.mentions(tag)).size() == 1
                        && ofKind(api.get(key, "/memory?userId=u"), "conditional").isEmpty());
    }

    @Test
    void aFailedMemoryJobIsRetriedAndThenWritesItsMemoryOnce() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        AtomicInteger attempts = new AtomicInteger();
        onModelCall(call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": true}"));
        onModelCall(call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(tag),
                call -> attempts.incrementAndGet() <= 2 ? Answer.error(500)
                        : Answer.json("{\"context\": \"NaN\", \"summary\": \"Units.\", \"note\": \"Use metric.\"}"));

        api.chat(key, session, "I prefer metric units " + tag);

        eventually().until(() -> ofKind(api.get(key, "/memory?userId=u"), "conditional").size() == 1);
        assertThat(attempts.get()).isEqualTo(3);
        assertThat(ofKind(api.get(key, "/memory?userId=u"), "conditional").getFirst().path("text").asString())
                .isEqualTo("Context: Units.\nNote: Use metric.");
    }
}
