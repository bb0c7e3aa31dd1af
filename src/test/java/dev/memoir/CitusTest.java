package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.sql.DataSource;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariDataSource;

import dev.memoir.memory.SearchProbe;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.Json;
import dev.memoir.support.SeparateDeployment;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.JsonNode;

/**
 * Memoir on Citus, a coordinator and two workers (scripts/citus.sh; MEMOIR_TEST_CITUS_URL names the coordinator's
 * database). The service migrates the coordinator's database with Flyway, the documented distribution step
 * (scripts/citus-distribute.sql) distributes it, a migration written afterwards is applied to the distributed schema,
 * and then the service's flows run through the API against the coordinator, with single-shard plans shown by
 * EXPLAIN. The test is never skipped silently: without MEMOIR_TEST_CITUS_URL it fails, unless the run was asked to
 * leave Citus out (MEMOIR_TEST_WITHOUT_CITUS=1, which scripts/test.sh prints in its summary).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CitusTest {

    private static final FakeOpenAiServer fake = FakeOpenAiServer.instance();

    /** Tenant tables co-located by tenant_id: every table of the schema that is neither directory nor service. */
    private static final List<String> DIRECTORY = List.of("api_keys", "tenants");

    private static final List<String> SERVICE =
            List.of("failed_jobs", "flyway_schema_history", "job_runs", "scheduled_tasks");
    private static final String RERANKED_HISTORY =
            "{\"write\": [\"history\"], \"read\": [\"history\"], \"rerank\": true}";

    /**
     * Flyway's connection setting on Citus (docs/running.md): a migration that changes a distributed table and then a
     * reference table, or a table with a foreign key to one, must do it over one connection per node.
     */
    private static final String FLYWAY_ON_CITUS = "set citus.multi_shard_modify_mode = 'sequential'";

    private static final String MIGRATIONS = "classpath:db/migration,classpath:db/citus-later";
    private static final List<String> PRESETS =
            List.of("conditional", "conditional+summary", "multi-view", "memochat", "recursive", "rmm", "all");

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private final List<FakeOpenAiServer.Rule> rules = new ArrayList<>();

    private String url;
    private SeparateDeployment memoir;
    private Api api;
    private JdbcClient jdbc;

    @BeforeAll
    void migrateDistributeAndStart() throws Exception {
        url = System.getenv("MEMOIR_TEST_CITUS_URL");
        if (url == null || url.isBlank()) {
            if ("1".equals(System.getenv("MEMOIR_TEST_WITHOUT_CITUS"))) {
                Assumptions.abort("Citus left out on request (MEMOIR_TEST_WITHOUT_CITUS=1)");
            }
            fail("MEMOIR_TEST_CITUS_URL is not set. ./scripts/test.sh starts a Citus cluster (scripts/citus.sh) and "
                    + "sets it; to leave the Citus tests out, set MEMOIR_TEST_WITHOUT_CITUS=1.");
        }
        // A fresh schema on every run: Memoir's tables and functions of an earlier run are dropped on every node
        // (not the vector extension, which Memoir's user owns: scripts/citus.sh).
        admin("""
                do $$
                declare r record;
                begin
                    for r in select quote_ident(c.relname) as t from pg_class c
                             where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
                               and not c.relispartition and pg_get_userbyid(c.relowner) = '%1$s' loop
                        execute format('drop table if exists %%s cascade', r.t);
                    end loop;
                    for r in select p.oid::regprocedure::text as f from pg_proc p
                             where p.pronamespace = 'public'::regnamespace and pg_get_userbyid(p.proowner) = '%1$s'
                               and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') loop
                        execute format('drop function if exists %%s cascade', r.f);
                    end loop;
                end
                $$""".formatted(env("MEMOIR_TEST_CITUS_USER", "memoir")));

        // 1. Flyway migrates the coordinator's database, as for one PostgreSQL.
        start(Map.of("spring.flyway.init-sqls", FLYWAY_ON_CITUS)).close();
        // 2. The documented distribution step.
        admin(distributionStep());
        // 3. A migration written after the distribution, applied by Flyway to the distributed schema; then the
        // service runs, its recurring purge every second.
        memoir = start(Map.of(
                "spring.flyway.locations",
                MIGRATIONS,
                "spring.flyway.init-sqls",
                FLYWAY_ON_CITUS,
                "memoir.retention.purge-interval",
                "1s"));
        api = memoir.api();
        jdbc = memoir.bean(JdbcClient.class);
    }

    private SeparateDeployment start(Map<String, String> settings) {
        return SeparateDeployment.startAt(
                url, env("MEMOIR_TEST_CITUS_USER", "memoir"), env("MEMOIR_TEST_CITUS_PASSWORD", "memoir"), settings);
    }

    @AfterAll
    void stop() {
        if (memoir != null) {
            memoir.close();
        }
    }

    @AfterEach
    void removeRules() {
        rules.forEach(fake::remove);
        rules.clear();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** scripts/citus-distribute.sql as the server runs it, without psql's own commands. */
    private static String distributionStep() throws IOException {
        return Files.readAllLines(Path.of("scripts/citus-distribute.sql")).stream()
                .filter(line -> !line.startsWith("\\"))
                .collect(Collectors.joining("\n"));
    }

    /** Runs SQL on the coordinator as its superuser (the distribution step is an administrator's). */
    private void admin(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(
                        url,
                        env("MEMOIR_TEST_CITUS_ADMIN_USER", "postgres"),
                        env("MEMOIR_TEST_CITUS_ADMIN_PASSWORD", ""));
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private void onModelCall(
            Predicate<FakeOpenAiServer.ChatCall> when, Function<FakeOpenAiServer.ChatCall, Answer> answer) {
        rules.add(fake.on(when, answer));
    }

    /** A local webhook receiver that keeps every delivery's body and answers 204. */
    private static HttpServer receiverInto(List<String> bodies) throws IOException {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        return receiver;
    }

    /**
     * Four replies in a reranked session, each citing the first memory, until the reranker has learned from them
     * once (its update after four examples); answers the last reply's turn.
     */
    private String fourCitedRepliesTrainTheReranker(String key, String session) {
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": false, \"citations\": [1]}"));
        String turnId = null;
        for (int i = 0; i < 4; i++) {
            Api.Response reply = api.chat(key, session, "Tell me about myself " + i + " " + tag);
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            turnId = reply.text("turnId");
        }
        eventually()
                .until(() -> api.get(key, "/reflection/reranker")
                                .body()
                                .path("updates")
                                .asInt()
                        == 1);
        return turnId;
    }

    private static ConditionFactory eventually() {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200));
    }

    private static List<JsonNode> items(Api.Response response) {
        List<JsonNode> items = new ArrayList<>();
        response.body().path("items").forEach(items::add);
        return items;
    }

    private static List<String> ids(Api.Response response) {
        return items(response).stream().map(m -> m.path("id").asString()).toList();
    }

    private record Tenant(TenantId id, String key) {}

    private Tenant newTenant() {
        Api.Response created = api.createTenant("citus-" + UUID.randomUUID());
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return new Tenant(new TenantId(UUID.fromString(created.text("id"))), created.text("apiKey"));
    }

    private boolean jobsDone(String key, String session, String task) {
        JsonNode jobs = api.get(key, "/sessions/" + session).body().path("jobs");
        boolean found = false;
        for (JsonNode job : jobs) {
            if (!job.path("state").asString().equals("done")) {
                return false;
            }
            found |= task == null || job.path("task").asString().equals(task);
        }
        return found || task == null;
    }

    private String explain(String sql, Object... params) {
        return String.join(
                "\n",
                jdbc.sql("explain " + sql).params(params).query(String.class).list());
    }

    private static void singleShard(String plan) {
        assertThat(plan)
                .as(plan)
                .contains("Custom Scan (Citus")
                .contains("Task Count: 1")
                .doesNotContain("Task Count: 2");
    }

    @Test
    @Order(1)
    void theTenantTablesAreDistributedByTenantCoLocatedTheDirectoryIsReplicatedAndTheServiceTablesStayLocal() {
        List<Map<String, Object>> rows = jdbc.sql("""
                select c.relname::text as name, d.partmethod::text as method, d.colocationid,
                       case when d.partmethod = 'h' then column_to_column_name(d.logicalrelid, d.partkey) end as by
                from pg_class c left join pg_dist_partition d on d.logicalrelid = c.oid
                where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
                order by 1""").query().listOfRows();
        List<String> tenantTables = new ArrayList<>();
        Object colocation = null;
        for (Map<String, Object> row : rows) {
            String name = (String) row.get("name");
            if (DIRECTORY.contains(name)) {
                assertThat(row.get("method"))
                        .as("%s is a reference table", name)
                        .isEqualTo("n");
            } else if (SERVICE.contains(name)) {
                assertThat(row.get("method"))
                        .as("%s stays a plain table on the coordinator", name)
                        .isNull();
            } else {
                tenantTables.add(name);
                assertThat(row.get("method")).as("%s is hash-distributed", name).isEqualTo("h");
                assertThat(row.get("by")).as("%s's distribution column", name).isEqualTo("tenant_id");
                colocation = colocation == null ? row.get("colocationid") : colocation;
                assertThat(row.get("colocationid"))
                        .as("%s is co-located with the others", name)
                        .isEqualTo(colocation);
            }
        }
        assertThat(tenantTables)
                .contains(
                        "sessions",
                        "turns",
                        "memory_records",
                        "memory_passages",
                        "memory_revisions",
                        "reranker_feedback",
                        "reply_traces",
                        "tenant_retention")
                .as("the tables of the issues after Citus's, distributed by the step")
                .contains("conversation_imports", "webhook_endpoints", "webhook_deliveries")
                .as("the table a later migration added")
                .contains("later_notes");

        // Both workers hold shards; the coordinator none.
        assertThat(jdbc.sql("""
                select count(distinct p.nodeport) from pg_dist_shard s join pg_dist_shard_placement p using (shardid)
                where s.logicalrelid = 'memory_records'::regclass""").query(Integer.class).single()).isEqualTo(2);
        // memory_records stays partitioned by user inside each shard: the shards of its partitions are the
        // partitions of its shards, each with its own HNSW index.
        assertThat(jdbc.sql("""
                select count(*) from pg_dist_partition d join pg_inherits i on i.inhrelid = d.logicalrelid
                where i.inhparent = 'memory_records'::regclass""").query(Integer.class).single()).isEqualTo(16);
        List<String> hnswPerWorker = jdbc.sql("""
                select result from run_command_on_workers($$
                    select count(*) from pg_indexes where indexdef like '%USING hnsw%'
                    and tablename ~ '^memory_records_p[0-9]+_[0-9]+$'$$)""").query(String.class).list();
        assertThat(hnswPerWorker)
                .hasSize(2)
                .allSatisfy(count -> assertThat(Integer.parseInt(count))
                        .as("HNSW indexes of partition shards")
                        .isGreaterThanOrEqualTo(16));

        // Flyway's history, on the coordinator, records the migration applied after the distribution.
        assertThat(jdbc.sql("select success from flyway_schema_history where version = '1000'")
                        .query(Boolean.class)
                        .single())
                .isTrue();
        assertThat(jdbc.sql("select count(*) from information_schema.columns where table_name = 'memory_records' "
                                + "and column_name = 'later_note'")
                        .query(Integer.class)
                        .single())
                .isOne();
    }

    @Test
    @Order(2)
    void chatWithEveryPresetAndItsCloseJobsAndSearchFindsWhatWasSaid() {
        Tenant tenant = newTenant();
        for (String preset : PRESETS) {
            String user = "u-" + preset.replace('+', '-');
            String session = api.newSession(tenant.key(), user, "{\"strategy\": \"" + preset + "\"}");
            for (String line : List.of("I grow tomatoes on my balcony " + tag, "My dog is called Pixel " + tag)) {
                Api.Response reply = api.chat(tenant.key(), session, line);
                assertThat(reply.status()).as(preset + ": " + reply.raw()).isEqualTo(200);
            }
            Api.Response closed = api.close(tenant.key(), session);
            assertThat(closed.status()).as(preset + ": " + closed.raw()).isLessThan(300);
            String summary =
                    List.of("conditional+summary", "multi-view", "all").contains(preset) ? "session-summary" : null;
            eventually().alias(preset + "'s close jobs").until(() -> jobsDone(tenant.key(), session, summary));
        }
        // multi-view writes every utterance: a search of the user finds the turn.
        List<JsonNode> found =
                items(api.get(tenant.key(), "/memory?userId=u-multi-view&query=tomatoes%20balcony&kind=history"));
        assertThat(found).isNotEmpty();
        assertThat(found.getFirst().path("text").asString()).contains("tomatoes");
        assertThat(items(api.get(tenant.key(), "/memory?userId=u-multi-view&kind=summary")))
                .hasSize(1);
        assertThat(jdbc.sql("select count(*) from failed_jobs")
                        .query(Integer.class)
                        .single())
                .isZero();
    }

    @Test
    @Order(3)
    void aTurnImportAndAnArchiveImportRoundTrip() throws Exception {
        Tenant tenant = newTenant();
        String session = api.newSession(tenant.key(), "ivo", "{\"strategy\": \"multi-view\"}");
        Api.Response imported = api.importTurns(
                tenant.key(),
                session,
                "I sail on Lake Geneva " + tag,
                "Nice.",
                "I also climb in the Alps " + tag,
                "Great.");
        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        api.close(tenant.key(), session);
        eventually().until(() -> jobsDone(tenant.key(), session, "session-summary"));
        api.addFact(tenant.key(), "ivo", "Ivo lives in Lausanne " + tag, "supersedes", List.of());

        var http = java.net.http.HttpClient.newHttpClient();
        var response = http.send(
                java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create("http://localhost:" + api.port() + "/users/ivo/export"))
                        .header("Authorization", "Bearer " + tenant.key())
                        .GET()
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String archive = response.body();

        Tenant other = newTenant();
        Api.Response restored = api.sendWithHeadersAsResponse(
                "POST", "/users/ivo-copy/import", other.key(), archive, "Content-Type", "application/x-ndjson");
        assertThat(restored.status()).as(restored.raw()).isEqualTo(201);
        List<String> original = items(api.get(tenant.key(), "/memory?userId=ivo&limit=100")).stream()
                .map(m -> m.path("text").asString())
                .sorted()
                .toList();
        List<String> copy = items(api.get(other.key(), "/memory?userId=ivo-copy&limit=100")).stream()
                .map(m -> m.path("text").asString())
                .sorted()
                .toList();
        assertThat(copy).isNotEmpty().isEqualTo(original);
        assertThat(items(api.get(other.key(), "/memory?userId=ivo-copy&query=sailing%20lake")))
                .isNotEmpty();
        assertThat(api.get(other.key(), "/sessions?userId=ivo-copy").body().path("items"))
                .hasSize(1);
    }

    @Test
    @Order(4)
    void hybridSearchAsOfSupersessionItsReinstatementExpiryAndThePurge() {
        Tenant tenant = newTenant();
        String paris = api.addFact(
                tenant.key(),
                "ana",
                "Ana lives in Paris " + tag,
                "occurredAt",
                "2024-03-01T09:00:00Z",
                "supersedes",
                List.of());
        Api.Response berlin = api.addMemory(
                tenant.key(),
                "ana",
                "Ana moved to Berlin " + tag,
                "occurredAt",
                "2024-06-10T18:00:00Z",
                "supersedes",
                List.of(paris));
        assertThat(berlin.status()).as(berlin.raw()).isEqualTo(201);
        assertThat(ids(api.get(tenant.key(), "/memory?userId=ana&query=where%20does%20Ana%20live")))
                .containsExactly(berlin.text("id"));
        assertThat(ids(api.get(tenant.key(), "/memory?userId=ana&query=Ana%20lives&asOf=2024-04-01T00:00:00Z")))
                .containsExactly(paris);
        assertThat(api.get(tenant.key(), "/memory/" + paris).text("validTo")).isEqualTo("2024-06-10T18:00:00Z");

        // Deleting what superseded Paris reinstates it: memory_records_reinstate_superseded, run on the shard.
        assertThat(api.send("DELETE", "/memory/" + berlin.text("id"), tenant.key(), null)
                        .status())
                .isEqualTo(204);
        JsonNode reinstated = api.get(tenant.key(), "/memory/" + paris).body();
        assertThat(reinstated.path("supersededBy").isNull()
                        || reinstated.path("supersededBy").isMissingNode())
                .as(reinstated.toString())
                .isTrue();
        assertThat(ids(api.get(tenant.key(), "/memory?userId=ana"))).containsExactly(paris);

        // Expiry: invisible at once, deleted by the recurring purge (every second here) with its revisions.
        String trip = api.addFact(
                tenant.key(),
                "ana",
                "Ana is in Rome this week " + tag,
                "supersedes",
                List.of(),
                "expiresAt",
                Instant.now().plus(Duration.ofDays(1)).toString());
        api.send("PATCH", "/memory/" + trip, tenant.key(), Json.object("text", "Ana is in Rome until Sunday " + tag));
        jdbc.sql("update memory_records set expires_at = now() - interval '1 second' where tenant_id = ? and id = ?")
                .params(tenant.id().value(), UUID.fromString(trip))
                .update();
        assertThat(api.get(tenant.key(), "/memory/" + trip).status()).isEqualTo(404);
        eventually()
                .until(() -> jdbc.sql("select count(*) from memory_records where tenant_id = ? and id = ?")
                                .params(tenant.id().value(), UUID.fromString(trip))
                                .query(Integer.class)
                                .single()
                        == 0);
        assertThat(jdbc.sql("select count(*) from memory_revisions where tenant_id = ? and memory_id = ?")
                        .params(tenant.id().value(), UUID.fromString(trip))
                        .query(Integer.class)
                        .single())
                .isZero();
        // A memory's owner cannot change (memory_records_keep_owner, on the shard).
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> jdbc.sql(
                                "update memory_records set user_id = 'someone-else' where tenant_id = ? and id = ?")
                        .params(tenant.id().value(), UUID.fromString(paris))
                        .update()))
                .hasMessageContaining("cannot move to another tenant or user");
    }

    @Test
    @Order(5)
    void erasingAUserLeavesNothingOfItAndTwoTenantsStayApart() {
        Tenant one = newTenant();
        Tenant two = newTenant();
        for (Tenant tenant : List.of(one, two)) {
            String session = api.newSession(tenant.key(), "eve", "{\"strategy\": \"multi-view\"}");
            api.chat(tenant.key(), session, "I keep bees in Provence " + tag);
            api.close(tenant.key(), session);
            eventually().until(() -> jobsDone(tenant.key(), session, "session-summary"));
        }
        String oneFact = api.addFact(one.key(), "eve", "Eve's bees are Italian " + tag, "supersedes", List.of());
        assertThat(api.get(two.key(), "/memory/" + oneFact).status())
                .as("another tenant's memory")
                .isEqualTo(404);

        Api.Response erased = api.send("DELETE", "/memory?userId=eve", one.key(), null);
        assertThat(erased.status()).as(erased.raw()).isEqualTo(200);

        for (String table : List.of(
                "sessions",
                "turns",
                "memory_records",
                "memory_passages",
                "memory_revisions",
                "episodes",
                "reply_traces")) {
            String user = switch (table) {
                case "turns", "reply_traces" -> null;
                default -> "user_id";
            };
            if (user != null && !table.equals("episodes")) {
                assertThat(jdbc.sql("select count(*) from " + table + " where tenant_id = ? and user_id = 'eve'")
                                .param(one.id().value())
                                .query(Integer.class)
                                .single())
                        .as(table)
                        .isZero();
            }
        }
        assertThat(jdbc.sql("select count(*) from turns where tenant_id = ?")
                        .param(one.id().value())
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(items(api.get(one.key(), "/memory?userId=eve&includeSuperseded=true")))
                .isEmpty();
        assertThat(items(api.get(two.key(), "/memory?userId=eve")))
                .as("the other tenant's eve")
                .isNotEmpty();
        assertThat(jdbc.sql("select count(*) from turns where tenant_id = ?")
                        .param(two.id().value())
                        .query(Integer.class)
                        .single())
                .isPositive();
    }

    @Test
    @Order(6)
    void theRerankerLearnsFromFeedbackAndFeedbackOnAReplyIsLearned() {
        Tenant tenant = newTenant();
        String session = api.sessionAfterClosedOne(
                tenant.key(),
                "tom",
                RERANKED_HISTORY,
                "I play the violin " + tag,
                "Lovely.",
                "My sister lives in Oslo",
                "Nice city.",
                "I am vegetarian",
                "Noted.");
        String turnId = fourCitedRepliesTrainTheReranker(tenant.key(), session);
        assertThat(jdbc.sql("select count(*) from reranker_feedback where tenant_id = ?")
                        .param(tenant.id().value())
                        .query(Integer.class)
                        .single())
                .isEqualTo(4);

        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": \"The user plays the cello now " + tag + ".\"}"));
        Api.Response feedback = api.send(
                "POST",
                "/reflection/feedback",
                tenant.key(),
                Json.object("turnId", turnId, "answer", "I switched to the cello."));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);
        eventually()
                .until(() -> items(api.get(tenant.key(), "/memory?userId=tom&kind=reflected")).stream()
                        .anyMatch(m -> m.path("text").asString().contains("cello")));
    }

    @Test
    @Order(7)
    void aTenantsSearchTurnInsertAndMemoryWriteRunAsOneTaskOnOneWorker() {
        Tenant tenant = newTenant();
        String session = api.newSession(tenant.key(), "pia", "{\"strategy\": \"multi-view\"}");
        api.chat(tenant.key(), session, "I collect old maps " + tag);
        UUID sessionId = UUID.fromString(session);

        String search = String.join("\n", SearchProbe.plan(memoir.context(), tenant.id(), "pia", "old maps"));
        singleShard(search);
        assertThat(search)
                .as("the HNSW or exact scan of the user's partition of one shard")
                .containsPattern("memory_records_p[0-9]+_[0-9]+");

        singleShard(explain("""
                insert into turns (tenant_id, id, session_id, seq, role, content, created_at, occurred_at)
                values (?, ?, ?, 99, 'USER', 'x', now(), now())""", tenant.id().value(), UUID.randomUUID(), sessionId));
        singleShard(explain("""
                update memory_records set text = text || '' where tenant_id = ? and user_id = 'pia'
                and id = ?""", tenant.id().value(), UUID.randomUUID()));
        singleShard(explain(
                "select * from memory_records where tenant_id = ? and user_id = 'pia'",
                tenant.id().value()));

        // The time-span trigger, on the shard, reads the memory's turns (within its tenant, V44): a memory written
        // without a time gets its turn's.
        Map<String, Object> turn = jdbc.sql("select id, occurred_at from turns where tenant_id = ? limit 1")
                .param(tenant.id().value())
                .query()
                .singleRow();
        UUID probe = UUID.randomUUID();
        jdbc.sql("""
                insert into memory_records (id, tenant_id, user_id, kind, text, embedding, embedding_model,
                                            created_at, updated_at, turn_ids)
                select ?, m.tenant_id, m.user_id, m.kind, 'span probe', m.embedding, m.embedding_model,
                       now(), now(), array[cast(? as uuid)]
                from memory_records m where m.tenant_id = ? and m.user_id = 'pia' limit 1""").params(probe, turn.get("id"), tenant.id().value()).update();
        assertThat(jdbc.sql("select occurred_from from memory_records where tenant_id = ? and id = ?")
                        .params(tenant.id().value(), probe)
                        .query(java.sql.Timestamp.class)
                        .single())
                .isEqualTo(turn.get("occurred_at"));
    }

    @Test
    @Order(8)
    void theSearchSettingsReachTheWorkerThatRunsTheSearch() {
        Tenant tenant = newTenant();
        api.addFact(tenant.key(), "rae", "Rae restores clocks " + tag, "supersedes", List.of());
        String probe = """
                select current_setting('hnsw.ef_search') as ef_search,
                       current_setting('hnsw.iterative_scan') as iterative_scan,
                       current_setting('max_parallel_workers_per_gather') as parallel,
                       inet_server_port() as port
                from memory_records where tenant_id = ? and user_id = 'rae' limit 1""";
        Map<String, Object> onTheWorker = SearchProbe.afterSearchSettings(
                memoir.context(), tenant.id(), "rae", probe, tenant.id().value());
        assertThat(onTheWorker.get("port"))
                .as("the probe ran on a worker")
                .isNotEqualTo(jdbc.sql("select inet_server_port()")
                        .query(Integer.class)
                        .single());
        // The service's default: 100 candidates × ef-search-factor 4.
        assertThat(onTheWorker.get("ef_search")).isEqualTo("400");
        assertThat(onTheWorker.get("iterative_scan")).isEqualTo("relaxed_order");
        assertThat(onTheWorker.get("parallel")).isEqualTo("0");
    }

    @Test
    @Order(9)
    void aChatGptExportImportsOnceAndAWebhookDeliversAMemorysCreation() throws Exception {
        Tenant tenant = newTenant();
        String export = """
                [{"title": "Pasta %1$s", "create_time": 1700000000, "update_time": 1700003600,
                  "conversation_id": "c-citus", "current_node": "a",
                  "mapping": {
                    "root": {"id": "root", "message": null, "parent": null, "children": ["u"]},
                    "u": {"id": "u", "parent": "root", "children": ["a"], "message": {"id": "u",
                          "author": {"role": "user", "metadata": {}}, "create_time": 1700000001,
                          "content": {"content_type": "text", "parts": ["How long do I boil pasta? %1$s"]},
                          "status": "finished_successfully", "metadata": {}, "recipient": "all"}},
                    "a": {"id": "a", "parent": "u", "children": [], "message": {"id": "a",
                          "author": {"role": "assistant", "metadata": {}}, "create_time": 1700000002,
                          "content": {"content_type": "text", "parts": ["About ten minutes."]},
                          "status": "finished_successfully", "metadata": {}, "recipient": "all"}}}}]
                """.formatted(tag);
        byte[] body = export.getBytes(StandardCharsets.UTF_8);
        Api.Response imported = api.postBytes("/users/uma/import/chatgpt", tenant.key(), body, "application/json");
        assertThat(imported.status()).as(imported.raw()).isEqualTo(200);
        assertThat(imported.body().path("imported").asInt()).as(imported.raw()).isEqualTo(1);
        // conversation_imports, distributed with its session, keys the import: the same export adds nothing.
        Api.Response again = api.postBytes("/users/uma/import/chatgpt", tenant.key(), body, "application/json");
        assertThat(again.body().path("unchanged").asInt()).as(again.raw()).isEqualTo(1);
        assertThat(api.get(tenant.key(), "/sessions?userId=uma").body().path("items"))
                .hasSize(1);

        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer receiver = receiverInto(received);
        try {
            Api.Response registered = api.send(
                    "POST",
                    "/webhooks",
                    tenant.key(),
                    Json.object(
                            "url",
                            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
                            "events",
                            List.of("memory.created")));
            assertThat(registered.status()).as(registered.raw()).isEqualTo(201);
            String fact = api.addFact(tenant.key(), "uma", "Uma cooks pasta al dente " + tag, "supersedes", List.of());
            eventually().until(() -> received.stream().anyMatch(delivery -> delivery.contains(fact)));
            // Every delivery of the endpoint (the fact's and any other memory the import's jobs wrote meanwhile)
            // goes out at its first attempt: its lookups and updates reach the shard that holds it.
            String deliveriesPath = "/webhooks/" + registered.text("id") + "/deliveries";
            eventually()
                    .until(() -> items(api.get(tenant.key(), deliveriesPath)).stream()
                            .noneMatch(
                                    delivery -> delivery.path("state").asText().equals("pending")));
            assertThat(items(api.get(tenant.key(), deliveriesPath)))
                    .isNotEmpty()
                    .allSatisfy(delivery -> {
                        assertThat(delivery.path("state").asText()).isEqualTo("delivered");
                        assertThat(delivery.path("attempts").asInt()).isEqualTo(1);
                    });
        } finally {
            receiver.stop(0);
        }
    }

    /**
     * Every statement of a chat turn's path names its tenant, and so runs on the one shard that holds it: a
     * deployment whose connections refuse any statement Citus would send to more than one shard
     * ({@code citus.multi_task_query_log_level = 'error'}) serves the whole path, with every preset, the close
     * jobs, memory writes and searches, the reranker and feedback.
     */
    @Test
    @Order(10)
    void aChatTurnsPathRunsEveryStatementOnOneShardWithEveryPreset() throws Exception {
        // The first deployment's scheduler would run this one's jobs, on connections that allow any statement.
        memoir.close();
        memoir = start(Map.of(
                "spring.flyway.locations",
                MIGRATIONS,
                "spring.flyway.init-sqls",
                FLYWAY_ON_CITUS,
                "memoir.session.idle-close-after",
                "0",
                "memoir.retention.purge-interval",
                "1h"));
        api = memoir.api();
        jdbc = memoir.bean(JdbcClient.class);
        // Created by the operator's API, before the refusal: not the chat path.
        Tenant tenant = newTenant();
        refuseMultiShardStatements(memoir.bean(DataSource.class));

        for (String preset : PRESETS) {
            String user = "r-" + preset.replace('+', '-');
            String session = api.newSession(tenant.key(), user, "{\"strategy\": \"" + preset + "\"}");
            Api.Response chatted = api.chat(tenant.key(), session, "I grow tomatoes on my balcony " + tag);
            assertThat(chatted.status()).as(preset + ": " + chatted.raw()).isEqualTo(200);
            Api.Response appended =
                    api.importTurns(tenant.key(), session, "My dog is called Pixel " + tag, "A fine name.");
            assertThat(appended.status()).as(preset + ": " + appended.raw()).isEqualTo(201);
            chatted = api.chat(tenant.key(), session, "What do I grow? " + tag);
            assertThat(chatted.status()).as(preset + ": " + chatted.raw()).isEqualTo(200);
            Api.Response closed = api.close(tenant.key(), session);
            assertThat(closed.status()).as(preset + ": " + closed.raw()).isLessThan(300);
            eventually().alias(preset + "'s close jobs").until(() -> jobsDoneWithoutFailure(tenant.key(), session));
        }

        String fact = api.addFact(tenant.key(), "r-ana", "Ana moved to Porto " + tag, "supersedes", List.of());
        assertThat(ids(api.get(tenant.key(), "/memory?userId=r-ana&query=Ana%20moved%20to%20Porto")))
                .contains(fact);
        assertThat(api.get(tenant.key(), "/memory/" + fact).status()).isEqualTo(200);
        Api.Response revised = api.send(
                "PATCH", "/memory/" + fact, tenant.key(), Json.object("text", "I moved to Porto last year " + tag));
        assertThat(revised.status()).as(revised.raw()).isEqualTo(200);

        String session = api.sessionAfterClosedOne(
                tenant.key(),
                "r-tom",
                RERANKED_HISTORY,
                "I play the violin " + tag,
                "Lovely.",
                "My sister lives in Oslo",
                "Nice city.");
        String turnId = fourCitedRepliesTrainTheReranker(tenant.key(), session);
        assertThat(api.get(tenant.key(), "/reflection/replies/" + turnId).status())
                .isEqualTo(200);
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": \"The user plays the cello now " + tag + ".\"}"));
        Api.Response feedback = api.send(
                "POST",
                "/reflection/feedback",
                tenant.key(),
                Json.object("turnId", turnId, "answer", "I switched to the cello."));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);
        eventually()
                .until(() -> items(api.get(tenant.key(), "/memory?userId=r-tom&kind=reflected")).stream()
                        .anyMatch(m -> m.path("text").asString().contains("cello")));

        // The other ways in: the OpenAI-compatible endpoint (a conversation resent with one more turn), MCP's
        // memory tools, a user's export, and a webhook endpoint's deliveries of what these wrote.
        List<String> delivered = new CopyOnWriteArrayList<>();
        HttpServer receiver = receiverInto(delivered);
        try (McpSyncClient mcp = api.mcp(tenant.key())) {
            Api.Response hook = api.send(
                    "POST",
                    "/webhooks",
                    tenant.key(),
                    Json.object(
                            "url",
                            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
                            "events",
                            List.of("memory.created", "turns.recorded")));
            assertThat(hook.status()).as(hook.raw()).isEqualTo(201);
            OpenAIClient openai = api.openAi(tenant.key());
            ChatCompletionCreateParams.Builder conversation = ChatCompletionCreateParams.builder()
                    .model("any")
                    .user("r-vic")
                    .addUserMessage("I collect stamps " + tag);
            openai.chat().completions().create(conversation.build());
            openai.chat()
                    .completions()
                    .create(conversation
                            .addAssistantMessage("ok")
                            .addUserMessage("What do I collect? " + tag)
                            .build());
            CallToolResult added = mcp.callTool(new CallToolRequest(
                    "add_memory", Map.of("userId", "r-vic", "text", "Vic's stamps are from Chile " + tag)));
            assertThat(added.isError()).as(added.content().toString()).isFalse();
            CallToolResult found = mcp.callTool(
                    new CallToolRequest("search_memory", Map.of("userId", "r-vic", "query", "stamps from Chile")));
            assertThat(found.isError()).as(found.content().toString()).isFalse();
            Api.Response export = api.get(tenant.key(), "/users/r-vic/export");
            assertThat(export.status()).as(export.raw()).isEqualTo(200);
            eventually()
                    .until(() -> delivered.stream().anyMatch(body -> body.contains("turns.recorded"))
                            && delivered.stream().anyMatch(body -> body.contains("memory.created")));
            // The receiver stays up until every job of the tenant is done: a job that writes a memory queues its
            // delivery as it commits, so nothing is left to deliver after that.
            eventually()
                    .until(() -> jdbc.sql("select count(*) from job_runs where tenant_id = ? and finished_at is null")
                                    .param(tenant.id().value())
                                    .query(Integer.class)
                                    .single()
                            == 0);
        } finally {
            receiver.stop(0);
        }

        // Every job of the tenant ran once and finished (job_runs is the coordinator's own table).
        assertThat(jdbc.sql("""
                select count(*) from job_runs
                where tenant_id = ? and (failures > 0 or finished_at is null)""").param(tenant.id().value()).query(Integer.class).single())
                .isZero();
        // And the refusal was in force: a lookup by id alone, the test's own, is refused.
        assertThat(org.assertj.core.api.Assertions.catchThrowable(
                        () -> jdbc.sql("select count(*) from sessions where id = ?")
                                .param(UUID.randomUUID())
                                .query(Integer.class)
                                .single()))
                .hasMessageContaining("multi-task query");
    }

    /** The session's jobs are all done; fails at once, with the job's error, when one of them failed. */
    private boolean jobsDoneWithoutFailure(String key, String session) {
        for (JsonNode job : api.get(key, "/sessions/" + session).body().path("jobs")) {
            assertThat(job.path("failures").asInt())
                    .as(
                            "%s %s failed: %s",
                            job.path("task").asString(),
                            job.path("id").asString(),
                            job.path("lastError").asString())
                    .isZero();
        }
        return jobsDone(key, session, null);
    }

    /**
     * Makes every connection of the deployment's pool refuse a statement that Citus would run on more than one
     * shard, by setting {@code citus.multi_task_query_log_level = 'error'} on each; a pooled connection keeps its
     * session settings. Set once the deployment has started: its check of the embedding model at start looks across
     * tenants by design.
     */
    private static void refuseMultiShardStatements(DataSource dataSource) throws SQLException {
        int size = dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < size; i++) {
                Connection connection = dataSource.getConnection();
                connections.add(connection);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("set citus.multi_task_query_log_level = 'error'");
                }
            }
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }
}
