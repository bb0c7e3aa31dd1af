package dev.memoir.reranker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class RerankerFeedbackTest extends IntegrationTest {

    private static final String RERANKED_HISTORY =
            "{\"write\": [\"history\"], \"read\": [\"history\"], \"rerank\": true}";

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    /** A tenant whose user has some history to retrieve, and an open reranking session. */
    private String[] tenantWithRerankingSession() {
        String key = api.newTenant();
        return new String[] {
            key,
            api.sessionAfterClosedOne(
                    key,
                    "tom",
                    RERANKED_HISTORY,
                    "I play the violin",
                    "Lovely.",
                    "My sister lives in Oslo",
                    "Nice city.",
                    "I am vegetarian",
                    "Noted.")
        };
    }

    private JsonNode status(String key) {
        return api.get(key, "/reflection/reranker").body();
    }

    @Test
    void theReplyCitesItsMemoriesAndTheCitationsAreStoredAsFeedback() {
        String[] tenant = tenantWithRerankingSession();
        String question = "What instrument do I play? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(question),
                call -> Answer.json("{\"reply\": \"The violin.\", \"remember\": false, \"citations\": [1]}"));

        Api.Response reply = api.chat(tenant[0], tenant[1], question);

        JsonNode memories = reply.body().path("memories");
        assertThat(memories)
                .as("every turn of the user's memory: the budget, not a top K, decides how many are shown")
                .hasSize(6);
        assertThat(memories.get(0).path("cited").asBoolean()).isTrue();
        assertThat(memories.valueStream().skip(1))
                .allSatisfy(m -> assertThat(m.path("cited").asBoolean()).isFalse());
        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(question)))
                .isEmpty();

        JsonNode row = jdbc.sql("""
                select cardinality(candidate_ids) as candidates, cardinality(shown_ids) as shown,
                       cited_ids[1]::text as cited, model_version from reranker_feedback where turn_id = ?""")
                                .param(UUID.fromString(reply.text("turnId")))
                                .query((rs, n) -> new int[] {
                                    rs.getInt("candidates"),
                                    rs.getInt("shown"),
                                    rs.getString("cited")
                                                    .equals(memories.get(0)
                                                            .path("id")
                                                            .asString())
                                            ? 1
                                            : 0,
                                    rs.getInt("model_version")
                                })
                                .single()
                        instanceof int[] values
                ? tree(values)
                : null;
        assertThat(row.path("candidates").asInt()).isGreaterThanOrEqualTo(memories.size());
        assertThat(row.path("shown").asInt()).isEqualTo(memories.size());
        assertThat(row.path("citedFirst").asInt()).isEqualTo(1);
        assertThat(row.path("modelVersion").asInt()).isZero();

        JsonNode status = status(tenant[0]);
        assertThat(status.path("feedback").asInt()).isEqualTo(1);
        assertThat(status.path("averageReward").asDouble())
                .isEqualTo((1.0 - (memories.size() - 1)) / memories.size(), Offset.offset(1e-9));

        JsonNode erased =
                api.send("DELETE", "/memory?userId=tom", tenant[0], null).body();
        assertThat(erased.path("rerankerFeedback").asInt()).isEqualTo(1);
        assertThat(status(tenant[0]).path("feedback").asInt()).isZero();
    }

    private static JsonNode tree(int[] values) {
        var node = JsonMapper.builder().build().createObjectNode();
        node.put("candidates", values[0]);
        node.put("shown", values[1]);
        node.put("citedFirst", values[2]);
        node.put("modelVersion", values[3]);
        return node;
    }

    @Test
    void aTenantsFeedbackTrainsItsOwnRerankerAndNoOtherAndResetStartsOver() {
        String[] learner = tenantWithRerankingSession();
        String[] bystander = tenantWithRerankingSession();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": false, \"citations\": [1]}"));

        for (int i = 0; i < 4; i++) {
            assertThat(api.chat(learner[0], learner[1], "Tell me about myself " + i + " " + tag)
                            .status())
                    .isEqualTo(200);
        }

        JsonNode trained = eventually()
                .until(() -> status(learner[0]), s -> s.path("updates").asInt() == 1);
        assertThat(trained.path("version").asInt()).isEqualTo(1);
        assertThat(trained.path("pendingFeedback").asInt()).isZero();
        assertThat(trained.path("citedRecallAfter").isNumber()).isTrue();
        JsonNode untouched = status(bystander[0]);
        assertThat(untouched.path("version").asInt()).isZero();
        assertThat(untouched.path("updates").asInt()).isZero();
        assertThat(untouched.path("feedback").asInt()).isZero();

        JsonNode reset =
                api.send("POST", "/reflection/reranker/reset", learner[0], null).body();
        assertThat(reset.path("version").asInt()).isEqualTo(2);
        assertThat(reset.path("updates").asInt()).isZero();
        assertThat(reset.path("feedback").asInt()).isEqualTo(4);
        assertThat(status(bystander[0]).path("version").asInt()).isZero();
    }
}
