package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class ChatMemoryFlowTest extends IntegrationTest {

    @Test
    void chatStoresHistoryConditionalAndSummaryMemoriesWithProvenanceAndUsesThemInALaterSession() {
        String key = api.newTenant();
        String first = api.newSession(key, "alice", null);
        String fact = "I am allergic to peanuts " + UUID.randomUUID();
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(fact),
                call -> Answer.json("{\"reply\": \"Noted, no peanuts for you.\", \"remember\": true}"));
        onModelCall(call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(fact), call -> Answer.json("""
                        {"context": "NaN", "summary": "The user told the assistant about a food allergy.",
                         "note": "The user is allergic to peanuts; never suggest food with peanuts."}"""));
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions(fact),
                call -> Answer.sessionSummary("Alice said she is allergic to peanuts."));

        Api.Response reply = api.chat(key, first, fact);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text("reply")).isEqualTo("Noted, no peanuts for you.");
        assertThat(reply.body().path("remembered").asBoolean()).isTrue();
        String userTurnId = reply.text("userTurnId");
        String assistantTurnId = reply.text("turnId");

        List<JsonNode> history = ofKind(api.get(key, "/memory?userId=alice&kind=history"), "history");
        assertThat(history)
                .extracting(m -> m.path("text").asString())
                .containsExactlyInAnyOrder("User: " + fact, "Assistant: Noted, no peanuts for you.");
        assertThat(history)
                .extracting(m -> m.path("provenance").path("turnIds").get(0).asString())
                .containsExactlyInAnyOrder(userTurnId, assistantTurnId);

        JsonNode conditional = eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=alice&kind=conditional"), "conditional"),
                        list -> list.size() == 1)
                .getFirst();
        assertThat(conditional.path("text").asString())
                .contains("food allergy")
                .contains("never suggest food with peanuts");
        assertThat(conditional.path("provenance").path("sessionId").asString()).isEqualTo(first);
        assertThat(conditional.path("provenance").path("turnIds").get(0).asString())
                .isEqualTo(userTurnId);

        assertThat(api.close(key, first).status()).isEqualTo(202);
        JsonNode summary = eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=alice&kind=summary"), "summary"),
                        list -> list.size() == 1)
                .getFirst();
        assertThat(summary.path("text").asString()).isEqualTo("Alice said she is allergic to peanuts.");
        assertThat(summary.path("provenance").path("sessionId").asString()).isEqualTo(first);
        assertThat(summary.path("provenance").path("turnIds")).hasSize(2);

        Api.Response search = api.get(key, "/memory?userId=alice&query=peanut%20allergy&limit=10");
        assertThat(items(search))
                .extracting(m -> m.path("kind").asString())
                .contains("history", "conditional", "summary");
        assertThat(items(search)).allSatisfy(m -> {
            assertThat(m.path("score").isNumber()).isTrue();
            assertThat(m.path("provenance").path("sessionId").asString()).isEqualTo(first);
        });

        String second = api.newSession(key, "alice", null);
        String question = "Can you suggest a snack for my hike? " + UUID.randomUUID();
        Api.Response later = api.chat(key, second, question);

        assertThat(later.status()).isEqualTo(200);
        ChatCall replyCall = fake.calls(
                        c -> c.is(Step.REPLY) && c.lastUserMessage().equals(question))
                .getFirst();
        assertThat(replyCall.systemPrompt()).contains("never suggest food with peanuts");
        assertThat(later.body().path("memories")).isNotEmpty();
        assertThat(later.body().path("memories").findValuesAsString("kind")).contains("conditional");
    }

    @Test
    void aMessageNotWorthRememberingGetsNoConditionalMemory() {
        String key = api.newTenant();
        String session = api.newSession(key, "bob", null);
        String greeting = "Hello there " + UUID.randomUUID();

        Api.Response reply = api.chat(key, session, greeting);

        assertThat(reply.body().path("remembered").asBoolean()).isFalse();
        assertThat(fake.calls(c -> c.is(Step.CONDITIONAL_MEMORY) && c.mentions(greeting)))
                .isEmpty();
        assertThat(ofKind(api.get(key, "/memory?userId=bob"), "conditional")).isEmpty();
        assertThat(ofKind(api.get(key, "/memory?userId=bob"), "history")).hasSize(2);
    }

    @Test
    void importedTurnsAreStoredInOrderWithHistoryMemoryAndNoModelCall() {
        String key = api.newTenant();
        String session = api.newSession(key, "carol", null);
        String marker = UUID.randomUUID().toString();
        int callsBefore = fake.calls().size();

        Api.Response imported = api.importTurns(key, session, "I moved to Lisbon " + marker, "Welcome to Lisbon!");

        assertThat(imported.status()).isEqualTo(201);
        assertThat(fake.calls(c -> c.mentions(marker))).isEmpty();
        Api.Response stored = api.get(key, "/sessions/" + session);
        assertThat(stored.body().path("turns").findValuesAsString("role")).containsExactly("user", "assistant");
        assertThat(stored.body().path("turns").findValuesAsString("seq")).containsExactly("0", "1");
        assertThat(ofKind(api.get(key, "/memory?userId=carol&query=Lisbon"), "history"))
                .extracting(m -> m.path("text").asString())
                .containsExactlyInAnyOrder("User: I moved to Lisbon " + marker, "Assistant: Welcome to Lisbon!");
        assertThat(fake.calls().size()).isGreaterThanOrEqualTo(callsBefore);
    }

    @Test
    void sessionSettingsChooseWhichKindsAreWrittenAndRead() {
        String key = api.newTenant();
        String session = api.newSession(
                key, "dave", "{\"write\": [\"conditional\"], \"read\": [\"conditional\"], \"reflectionRounds\": 0}");
        String message = "My favourite colour is teal " + UUID.randomUUID();
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(message),
                call -> Answer.json("{\"reply\": \"Teal it is.\", \"remember\": true}"));

        Api.Response reply = api.chat(key, session, message);

        assertThat(reply.body().path("remembered").asBoolean()).isTrue();
        eventually()
                .until(() -> ofKind(api.get(key, "/memory?userId=dave"), "conditional")
                                .size()
                        == 1);
        assertThat(ofKind(api.get(key, "/memory?userId=dave"), "history")).isEmpty();
        Api.Response settings = api.get(key, "/sessions/" + session);
        assertThat(settings.body().path("memory").path("write").get(0).asString())
                .isEqualTo("conditional");
        assertThat(settings.body().path("memory").path("topK").path("history").asInt())
                .isEqualTo(3);
        assertThat(api.close(key, session).status()).isEqualTo(202);
        assertThat(fake.calls(c -> c.is(Step.SESSION_SUMMARY) && c.mentions(message)))
                .isEmpty();
    }
}
