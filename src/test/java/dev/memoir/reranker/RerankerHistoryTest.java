package dev.memoir.reranker;

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

import tools.jackson.databind.JsonNode;

class RerankerHistoryTest extends IntegrationTest {

    private static final String RERANKED = "{\"write\": [\"history\"], \"read\": [\"history\"], \"rerank\": true}";

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void theRerankerHistoryGroupsRepliesByTheVersionThatServedThem() {
        String key = api.newTenant();
        String session = api.sessionAfterClosedOne(
                key, "vic", RERANKED, "I play the violin", "Lovely.", "My sister lives in Oslo", "Nice city.");
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"Noted.\", \"remember\": false, \"citations\": [1]}"));
        List<Double> rewards = new ArrayList<>();
        // The tests train every four replies: four replies make version 1, the next two are served by it.
        for (int i = 0; i < 6; i++) {
            if (i == 4) {
                eventually()
                        .until(() -> api.get(key, "/reflection/reranker")
                                        .body()
                                        .path("version")
                                        .asInt()
                                == 1);
            }
            Api.Response reply = api.chat(key, session, "Question " + i + " " + tag);
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            JsonNode memories = reply.body().path("memories");
            rewards.add(memories.valueStream()
                    .mapToDouble(m -> m.path("cited").asBoolean() ? 1 : -1)
                    .average()
                    .orElseThrow());
        }

        JsonNode history = api.get(key, "/reflection/reranker/history").body();

        assertThat(history.path("replies").asInt()).isEqualTo(6);
        JsonNode periods = history.path("items");
        assertThat(periods).hasSize(2);
        assertThat(periods.get(0).path("version").asInt()).isZero();
        assertThat(periods.get(0).path("replies").asInt()).isEqualTo(4);
        assertThat(periods.get(0).path("averageReward").asDouble())
                .isEqualTo(
                        rewards.subList(0, 4).stream()
                                .mapToDouble(d -> d)
                                .average()
                                .orElseThrow(),
                        offset(1e-9));
        assertThat(periods.get(1).path("version").asInt()).isEqualTo(1);
        assertThat(periods.get(1).path("replies").asInt()).isEqualTo(2);
        assertThat(periods.get(1).path("averageReward").asDouble())
                .isEqualTo(
                        rewards.subList(4, 6).stream()
                                .mapToDouble(d -> d)
                                .average()
                                .orElseThrow(),
                        offset(1e-9));
        for (JsonNode period : periods) {
            assertThat(period.path("citedInTopK").asDouble()).isBetween(0.0, 1.0);
            assertThat(period.path("retrievalCitedInTopK").asDouble()).isBetween(0.0, 1.0);
            assertThat(period.path("from").asString())
                    .isLessThanOrEqualTo(period.path("to").asString());
        }
        assertThat(periods.get(0).path("to").asString())
                .isLessThanOrEqualTo(periods.get(1).path("from").asString());

        JsonNode lastTwo =
                api.get(key, "/reflection/reranker/history?replies=2").body();
        assertThat(lastTwo.path("replies").asInt()).isEqualTo(2);
        assertThat(lastTwo.path("items")).hasSize(1);
        assertThat(api.get(key, "/reflection/reranker/history?replies=0").status())
                .isEqualTo(400);
        assertThat(api.get(api.newTenant(), "/reflection/reranker/history")
                        .body()
                        .path("items"))
                .isEmpty();
    }
}
