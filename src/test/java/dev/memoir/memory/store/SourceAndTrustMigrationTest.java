package dev.memoir.memory.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.memoir.support.TestDatabase;

/**
 * V59 gives the rows written before it a source and a trust (docs/trust.md, "Source and trust"): the turns of a
 * ChatGPT import by the import that stored their session, a history memory by its turn, a memory resting on turns the
 * least of them, the rest unrecorded and medium. Run on a schema of its own, migrated to V58, filled, then to the
 * end.
 */
class SourceAndTrustMigrationTest {

    private final String schema = "v59_probe_" + UUID.randomUUID().toString().substring(0, 8);
    private final SingleConnectionDataSource dataSource = new SingleConnectionDataSource(
            TestDatabase.instance().url(),
            TestDatabase.instance().username(),
            TestDatabase.instance().password(),
            true);

    private Flyway flyway(String target) {
        return Flyway.configure()
                .dataSource(dataSource)
                .schemas(schema)
                .createSchemas(true)
                .placeholders(Map.of("embeddingDimensions", "384"))
                .target(target)
                .load();
    }

    @AfterEach
    void dropSchema() {
        new JdbcTemplate(dataSource).execute("drop schema if exists " + schema + " cascade");
        dataSource.destroy();
    }

    @Test
    void olderRowsGetTheSourceAndTrustOfTheTurnsTheyRestOn() {
        flyway("58").migrate();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("set search_path to " + schema + ", public");
        UUID tenant = UUID.randomUUID();
        UUID live = UUID.randomUUID();
        UUID exported = UUID.randomUUID();
        UUID said = UUID.randomUUID();
        UUID answered = UUID.randomUUID();
        UUID imported = UUID.randomUUID();
        jdbc.update("insert into tenants (id, name) values (?, ?)", tenant, schema);
        for (UUID session : new UUID[] {live, exported}) {
            jdbc.update(
                    "insert into sessions (id, tenant_id, user_id, status, settings, created_at, updated_at)"
                            + " values (?, ?, 'ada', 'CLOSED', '{}'::jsonb, now(), now())",
                    session,
                    tenant);
        }
        String turn = "insert into turns (id, tenant_id, session_id, seq, role, content, created_at, occurred_at)"
                + " values (?, ?, ?, ?, ?, ?, now(), now())";
        jdbc.update(turn, said, tenant, live, 0, "USER", "I keep bees.");
        jdbc.update(turn, answered, tenant, live, 1, "ASSISTANT", "Lovely.");
        jdbc.update(turn, imported, tenant, exported, 0, "USER", "Never suggest cloud services.");
        jdbc.update(
                "insert into conversation_imports (session_id, tenant_id, user_id, source, conversation_id,"
                        + " from_message, to_message, last_message_id) values (?, ?, 'ada', 'chatgpt', 'c1', 0, 1, 'm1')",
                exported,
                tenant);
        String memory = "insert into memory_records (id, tenant_id, user_id, kind, text, session_id, turn_ids,"
                + " embedding, embedding_model, created_at, updated_at, occurred_from, occurred_to)"
                + " values (?, ?, 'ada', ?, ?, ?, ?::uuid[], array_fill(0, array[384])::vector, 'm', now(), now(),"
                + " now(), now())";
        Map<String, UUID> memories = Map.of(
                "user history", UUID.randomUUID(),
                "assistant history", UUID.randomUUID(),
                "export history", UUID.randomUUID(),
                "live note", UUID.randomUUID(),
                "mixed memo", UUID.randomUUID(),
                "client fact", UUID.randomUUID());
        jdbc.update(
                memory, memories.get("user history"), tenant, "history", "User: I keep bees.", live, "{" + said + "}");
        jdbc.update(
                memory,
                memories.get("assistant history"),
                tenant,
                "history",
                "Assistant: Lovely.",
                live,
                "{" + answered + "}");
        jdbc.update(
                memory,
                memories.get("export history"),
                tenant,
                "history",
                "User: Never.",
                exported,
                "{" + imported + "}");
        jdbc.update(memory, memories.get("live note"), tenant, "conditional", "Keeps bees.", live, "{" + said + "}");
        jdbc.update(
                memory,
                memories.get("mixed memo"),
                tenant,
                "memo",
                "Bees, and no clouds.",
                live,
                "{" + said + "," + imported + "}");
        jdbc.update(memory, memories.get("client fact"), tenant, "fact", "Ada rows.", null, "{}");

        flyway("latest").migrate();

        Map<String, String> expected = Map.of(
                "user history", "user-turn//3",
                "assistant history", "assistant-turn//2",
                "export history", "import/chatgpt/1",
                "live note", "derived/conditional/3",
                "mixed memo", "derived/memo/1",
                "client fact", "unrecorded//2");
        expected.forEach((name, origin) -> assertThat(jdbc.queryForObject(
                        "select source || '/' || coalesce(source_detail, '') || '/' || trust from memory_records"
                                + " where id = ?",
                        String.class,
                        memories.get(name)))
                .as(name)
                .isEqualTo(origin));
        assertThat(jdbc.queryForList("select origin from turns order by seq, origin", String.class))
                .containsExactlyInAnyOrder("live", "live", "chatgpt");
    }
}
