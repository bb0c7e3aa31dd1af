package dev.memoir.memory.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.PlanPartitions;
import dev.memoir.memory.store.SqlValues;
import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/**
 * After a change of embedding model, memories of the old model are re-embedded by a durable job: it waits in
 * PostgreSQL while no job runner is up (a restart), search finds the waiting memories by their words meanwhile,
 * and once a runner starts every memory gets the configured model's vector.
 */
class ReembeddingTest extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MemoryReembedder reembedder;

    @Autowired
    TextEmbedder embedder;

    @Autowired
    ApplicationContext context;

    @Autowired
    NamedParameterJdbcTemplate named;

    @Test
    void memoriesOfAnotherModelAreReembeddedByAJobThatSurvivesARestart() {
        String key = api.newTenant();
        String session = api.newSession(key, "rex", null);
        api.importTurns(
                key,
                session,
                "My grandmother grew saffron crocuses in Kozani.",
                "How lovely.",
                "I keep bees on the roof of my flat.",
                "Bees are fascinating.");
        String sessionUuid = session;
        SmartLifecycle runner = context.getBean("jobRunner", SmartLifecycle.class);

        runner.stop();
        try {
            // As if these memories had been stored under the previous default model.
            int stale = jdbc.sql("""
                    update memory_records set embedding_model = 'all-minilm-l6-v2',
                        embedding = (select array_agg(0.05)::vector from generate_series(1, 384))
                    where session_id = cast(? as uuid)""").param(sessionUuid).update();
            assertThat(stale).isEqualTo(4);
            reembedder.queueWhenStale();
            assertThat(jdbc.sql("select count(*) from scheduled_tasks where task_name = 'memory-reembedding' "
                                    + "and task_instance = ?")
                            .param(embedder.modelName())
                            .query(Integer.class)
                            .single())
                    .isEqualTo(1);

            // Meanwhile: dense search skips vectors of another model, keyword search still finds them.
            assertThat(items(api.get(key, "/memory?userId=rex&mode=dense&query=saffron")))
                    .isEmpty();
            assertThat(items(api.get(key, "/memory?userId=rex&query=saffron")))
                    .extracting(m -> m.path("text").asString())
                    .contains("User: My grandmother grew saffron crocuses in Kozani.");
            Api.Response progress = api.get(Api.BOOTSTRAP_KEY, "/admin/embeddings");
            assertThat(progress.body().path("staleMemories").asLong()).isGreaterThanOrEqualTo(4);
            assertThat(progress.text("model")).isEqualTo(embedder.modelName());
        } finally {
            runner.start();
        }

        eventually()
                .atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.sql(
                                        "select count(*) from memory_records where session_id = cast(? as uuid) and embedding_model = ?")
                                .params(sessionUuid, embedder.modelName())
                                .query(Integer.class)
                                .single()
                        == 4);
        List<JsonNode> dense =
                items(api.get(key, "/memory?userId=rex&mode=dense&query=Who%20grew%20saffron%3F&limit=1"));
        assertThat(dense)
                .extracting(m -> m.path("text").asString())
                .containsExactly("User: My grandmother grew saffron crocuses in Kozani.");
        assertThat(dense.getFirst().path("score").asDouble()).isGreaterThan(0.5);
    }

    @Test
    void aReembeddedMemoryIsUpdatedInItsUsersPartitionAlone() {
        String key = api.newTenant();
        String session = api.newSession(key, "partitioned", null);
        api.importTurns(key, session, "The lighthouse keeper collects sea glass.", "What colours?");
        var memory = jdbc.sql(
                        "select id, tenant_id, user_id, text from memory_records where session_id = cast(? as uuid) "
                                + "limit 1")
                .param(session)
                .query()
                .singleRow();
        var params = new MapSqlParameterSource("id", memory.get("id"))
                .addValue("tenantId", memory.get("tenant_id"))
                .addValue("userId", memory.get("user_id"))
                .addValue("model", "another-model")
                .addValue("text", memory.get("text"))
                .addValue("vector", SqlValues.vector(embedder.embedDocument("sea glass")));

        List<String> plan = named.queryForList("explain " + MemoryReembedder.UPDATE_ONE, params, String.class);

        assertThat(PlanPartitions.in(plan))
                .as("partitions in the plan: %s", plan)
                .hasSize(1);
    }

    @Test
    void aTenantKeyCannotReadReembeddingProgress() {
        assertThat(api.get(api.newTenant(), "/admin/embeddings").status()).isEqualTo(401);
    }
}
