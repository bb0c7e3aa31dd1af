package dev.memoir.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class ReplyTraceTest extends IntegrationTest {

    private static final String HISTORY_ONLY = "{\"write\": [\"history\"], \"read\": [\"history\"]}";

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void aRepliesTraceListsTheMemoriesItWasGivenWithScoresAndCitationsAndLaterItsEpisode() {
        String key = api.newTenant();
        String session = api.sessionAfterClosedOne(
                key, "tia", HISTORY_ONLY, "I play the violin", "Lovely.", "My sister lives in Oslo", "Nice city.");
        String question = "Where does my sister live? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"In Oslo.\", \"remember\": false, \"citations\": [1]}"));
        Api.Response reply = api.chat(key, session, question);
        String turnId = reply.text("turnId");

        JsonNode trace = api.get(key, "/reflection/replies/" + turnId).body();

        assertThat(trace.path("turnId").asString()).isEqualTo(turnId);
        assertThat(trace.path("sessionId").asString()).isEqualTo(session);
        assertThat(trace.path("traced").asBoolean()).isTrue();
        assertThat(trace.has("episodeId")).isFalse();
        JsonNode given = reply.body().path("memories");
        assertThat(trace.path("memories")).hasSize(given.size()).isNotEmpty();
        for (int i = 0; i < given.size(); i++) {
            JsonNode traced = trace.path("memories").get(i);
            assertThat(traced.path("memoryId").asString())
                    .isEqualTo(given.get(i).path("id").asString());
            assertThat(traced.path("cited").asBoolean())
                    .isEqualTo(given.get(i).path("cited").asBoolean());
            assertThat(traced.path("score").asDouble())
                    .isEqualTo(given.get(i).path("score").asDouble(), offset(1e-6));
        }
        assertThat(trace.path("memories")
                        .valueStream()
                        .filter(m -> m.path("cited").asBoolean()))
                .hasSize(1);

        Api.Response feedback =
                api.send("POST", "/reflection/feedback", key, Json.object("turnId", turnId, "answer", "Oslo"));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);
        assertThat(api.get(key, "/reflection/replies/" + turnId).text("episodeId"))
                .isEqualTo(feedback.text("episodeId"));
    }

    @Test
    void aTraceIsOnlyTheTenantsOwnAndOnlyOfAReply() {
        String key = api.newTenant();
        String session = api.newSession(key, "una", HISTORY_ONLY);
        List<JsonNode> turns = new ArrayList<>();
        api.importTurns(key, session, "Hello", "Hi there.").body().path("turns").forEach(turns::add);
        String question = turns.get(0).path("id").asString();
        String importedReply = turns.get(1).path("id").asString();

        JsonNode imported = api.get(key, "/reflection/replies/" + importedReply).body();
        assertThat(imported.path("traced").asBoolean()).isFalse();
        assertThat(imported.path("memories")).isEmpty();
        assertThat(api.get(key, "/reflection/replies/" + question).status()).isEqualTo(400);
        assertThat(api.get(api.newTenant(), "/reflection/replies/" + importedReply)
                        .status())
                .isEqualTo(404);
        assertThat(api.get(key, "/reflection/replies/" + UUID.randomUUID()).status())
                .isEqualTo(404);
    }
}
