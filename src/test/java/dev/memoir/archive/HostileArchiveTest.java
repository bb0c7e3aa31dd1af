package dev.memoir.archive;

import static dev.memoir.support.Problems.assertBadField;
import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.archive.user.ArchiveFormat;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a hostile client sends: archives the API would refuse record by record, and instants PostgreSQL cannot store,
 * in archives, request bodies and query parameters. Each is refused with a 400 naming what is wrong (never a 500),
 * and an archive refused leaves nothing of it behind.
 */
class HostileArchiveTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Instants a client can write that PostgreSQL's timestamptz cannot hold (4713 BC to 294276 AD). */
    private static final List<Object> UNSTORABLE_INSTANTS = List.of(
            "+1000000000-12-31T23:59:59Z",
            "-1000000000-01-01T00:00:00Z",
            "+294277-01-01T00:00:00Z",
            "-4713-11-23T23:59:59Z",
            31556889864403199L);

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    /**
     * An archive of a user with a session of two turns, their history memories, a fact superseded by another that
     * was edited once, and a learning episode (added by hand: writing one takes the model) that names the turns and
     * the newer fact.
     */
    private final class Base {

        final String key = api.newTenant();
        final List<ObjectNode> lines = new ArrayList<>();

        Base() {
            String userId = "hostile-" + tag;
            String session = api.newSession(key, userId, null);
            Api.Response turns =
                    api.importTurns(key, session, "Where is the river walk " + tag + "?", "Along the Douro.");
            assertThat(turns.status()).as(turns.raw()).isEqualTo(201);
            String paris = api.addFact(key, userId, "The user lives in Paris " + tag, "supersedes", List.of());
            String berlin = api.addFact(key, userId, "The user moved to Berlin " + tag, "supersedes", List.of(paris));
            Api.Response edited = api.send(
                    "PATCH", "/memory/" + berlin, key, Json.object("text", "The user moved to Berlin in June " + tag));
            assertThat(edited.status()).as(edited.raw()).isEqualTo(200);
            export(key, userId)
                    .lines()
                    .map(line -> (ObjectNode) JSON.readTree(line))
                    .forEach(lines::add);
            ObjectNode episode = JSON.createObjectNode()
                    .put("type", "episode")
                    .put("id", UUID.randomUUID().toString())
                    .put("sessionId", session)
                    .put("questionTurnId", turn(0).path("id").asString())
                    .put("replyTurnId", turn(1).path("id").asString())
                    .put("question", "Where is the river walk?")
                    .put("status", "RESOLVED")
                    .put("trials", "[]")
                    .put("learned", "Along the Douro.")
                    .put("learnedMemoryId", fact("Berlin").path("id").asString())
                    .put("createdAt", "2024-01-01T00:00:00Z")
                    .put("updatedAt", "2024-01-01T00:00:00Z");
            lines.add(lines.size() - 1, episode);
        }

        ObjectNode of(String type, int index) {
            return lines.stream()
                    .filter(line -> line.path("type").asString().equals(type))
                    .skip(index)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + type + " " + index + " in " + lines));
        }

        ObjectNode header() {
            return of("memoir-user-archive", 0);
        }

        ObjectNode turn(int index) {
            return of("turn", index);
        }

        ObjectNode history() {
            return lines.stream()
                    .filter(line -> line.path("kind").asString().equals("history"))
                    .findFirst()
                    .orElseThrow();
        }

        ObjectNode fact(String containing) {
            return lines.stream()
                    .filter(line -> line.path("kind").asString().equals("fact")
                            && line.path("text").asString().contains(containing))
                    .findFirst()
                    .orElseThrow();
        }

        /** Marks the memory superseded by {@code by}, with the validity interval a superseded memory has. */
        void supersede(ObjectNode memory, JsonNode by) {
            memory.put("supersededBy", by.asString());
            if (memory.path("validTo").isNull() || memory.path("validTo").isMissingNode()) {
                memory.put("validTo", "2024-06-01T00:00:00Z");
            }
        }

        /** The archive as it is now, with the end line's counts made to match, so that only the change is wrong. */
        byte[] bytes() {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (ObjectNode line : lines) {
                counts.merge(line.path("type").asString(), 1, Integer::sum);
            }
            ObjectNode end = of("end", 0);
            ObjectNode endCounts = end.putObject("counts");
            for (String type : ArchiveFormat.ORDER) {
                endCounts.put(type, counts.getOrDefault(type, 0));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (ObjectNode line : lines) {
                out.writeBytes(JSON.writeValueAsBytes(line));
                out.write('\n');
            }
            return out.toByteArray();
        }
    }

    private String export(String key, String userId) {
        Api.Response response = api.get(key, "/users/" + userId + "/export");
        assertThat(response.status()).as(response.raw()).isEqualTo(200);
        return response.raw();
    }

    private Api.Response importArchive(String key, String userId, byte[] archive) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(
                                            "http://localhost:" + api.port() + "/users/" + userId + "/import"))
                                    .header("Authorization", "Bearer " + key)
                                    .header("Content-Type", "application/x-ndjson")
                                    .POST(HttpRequest.BodyPublishers.ofByteArray(archive))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
            return new Api.Response(response.statusCode(), body, response.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Refused whole, with a detail that names each of {@code named}, and nothing of it stored. */
    private void assertRefused(Base base, Api.Response refused, String userId, String... named) {
        assertProblem(refused, 400, "invalid-archive");
        assertThat(refused.text("detail")).as(refused.raw()).contains(named);
        assertThat(refused.text("detail").split("Nothing of the archive", -1))
                .as("said once: " + refused.raw())
                .hasSize(2);
        assertThat(items(api.get(base.key, "/memory?userId=" + userId + "&includeSuperseded=true")))
                .isEmpty();
        assertThat(items(api.get(base.key, "/sessions?userId=" + userId))).isEmpty();
    }

    private void assertArchiveRefused(Consumer<Base> change, String... named) {
        Base base = new Base();
        change.accept(base);
        String userId = "copy-" + tag;
        assertRefused(base, importArchive(base.key, userId, base.bytes()), userId, named);
    }

    @Test
    void theUnchangedArchiveImportsSoEachRefusalBelowIsForItsOneChange() {
        Base base = new Base();
        Api.Response imported = importArchive(base.key, "copy-" + tag, base.bytes());
        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(imported.body().path("counts").path("episode").asInt()).isEqualTo(1);
        assertThat(imported.body().path("counts").path("revision").asInt())
                .as("created and edit")
                .isEqualTo(2);
    }

    // References: every one must name a record of the same archive.

    @Test
    void aMemoryOfASessionTheArchiveDoesNotHoldIsRefusedNamingSessionId() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.history().put("sessionId", missing.toString()), "sessionId", missing.toString());
    }

    @Test
    void aMemoryRestingOnATurnTheArchiveDoesNotHoldIsRefusedNamingTurnIds() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.history().putArray("turnIds").add(missing.toString()), "turnIds", missing.toString());
    }

    @Test
    void aMemorySupersededByAMemoryTheArchiveDoesNotHoldIsRefusedNamingSupersededBy() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.fact("Paris").put("supersededBy", missing.toString()), "supersededBy", missing.toString());
    }

    @Test
    void aRevisionOfAMemoryTheArchiveDoesNotHoldIsRefusedNamingMemoryId() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.of("revision", 0).put("memoryId", missing.toString()), "memoryId", missing.toString());
    }

    @Test
    void aRevisionThatAbsorbedATurnTheArchiveDoesNotHoldIsRefusedNamingAbsorbedTurnIds() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.of("revision", 0)
                        .put("absorbedText", "Merged.")
                        .putArray("absorbedTurnIds")
                        .add(missing.toString()),
                "absorbedTurnIds",
                missing.toString());
    }

    @Test
    void anEpisodeWhoseQuestionIsNotInTheArchiveIsRefusedNamingQuestionTurnId() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.of("episode", 0).put("questionTurnId", missing.toString()),
                "questionTurnId",
                missing.toString());
    }

    @Test
    void anEpisodeWhoseReplyIsNotInTheArchiveIsRefusedNamingReplyTurnId() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.of("episode", 0).put("replyTurnId", missing.toString()),
                "replyTurnId",
                missing.toString());
    }

    @Test
    void anEpisodeThatLearnedAMemoryTheArchiveDoesNotHoldIsRefusedNamingLearnedMemoryId() {
        UUID missing = UUID.randomUUID();
        assertArchiveRefused(
                base -> base.of("episode", 0).put("learnedMemoryId", missing.toString()),
                "learnedMemoryId",
                missing.toString());
    }

    // A turn's role is one the turns table holds: refused by name, never a constraint's 500.

    @ParameterizedTest
    @ValueSource(strings = {"SYSTEM", "user", "bogus"})
    void aTurnWhoseRoleIsNoDialogueRoleIsRefusedNamingTheRole(String role) {
        assertArchiveRefused(base -> base.of("turn", 0).put("role", role), "role", role);
    }

    @Test
    void aTurnWithoutARoleIsRefusedNamingRole() {
        assertArchiveRefused(base -> base.of("turn", 0).remove("role"), "role");
    }

    @Test
    void theServicesOwnExportOfAUserWhoDeletedASessionImportsWithoutTheReferencesToIt() {
        String key = api.newTenant();
        String userId = "deleter-" + tag;
        String session = api.newSession(key, userId, "{\"strategy\": \"multi-view\", \"reflectionRounds\": 0}");
        String question = "Where do I live? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"In Paris.\", \"remember\": false, \"citations\": []}"));
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": \"The user lives in Berlin " + tag + ".\"}"));
        String turnId = api.chat(key, session, question).text("turnId");
        Api.Response feedback = api.send(
                "POST", "/reflection/feedback", key, Json.object("turnId", turnId, "answer", "I live in Berlin now."));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);
        // The correction learned in the session outlives it, naming the session and its turns.
        assertThat(api.send("DELETE", "/sessions/" + session, key, null).status())
                .isEqualTo(200);
        assertThat(ofKind(api.get(key, "/memory?userId=" + userId), "reflected"))
                .singleElement()
                .satisfies(
                        m -> assertThat(m.path("provenance").path("sessionId").asString())
                                .isEqualTo(session));

        Api.Response imported =
                importArchive(key, userId + "-copy", export(key, userId).getBytes(StandardCharsets.UTF_8));

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(ofKind(api.get(key, "/memory?userId=" + userId + "-copy"), "reflected"))
                .singleElement()
                .satisfies(m -> {
                    JsonNode sessionId = m.path("provenance").path("sessionId");
                    assertThat(sessionId.isNull() || sessionId.isMissingNode())
                            .as(m.toString())
                            .isTrue();
                    assertThat(m.path("provenance").path("turnIds"))
                            .as(m.toString())
                            .isEmpty();
                });
    }

    // Supersession: the API's own rules.

    @Test
    void aSupersessionLoopIsRefused() {
        assertArchiveRefused(
                base -> base.supersede(base.fact("Berlin"), base.fact("Paris").path("id")), "supersededBy", "loop");
    }

    @Test
    void aMemorySupersedingItselfIsRefused() {
        assertArchiveRefused(
                base -> base.supersede(base.fact("Berlin"), base.fact("Berlin").path("id")), "supersededBy", "itself");
    }

    @Test
    void aFactSupersededByAHistoryMemoryIsRefused() {
        assertArchiveRefused(
                base -> base.supersede(base.fact("Paris"), base.history().path("id")), "supersededBy", "history");
    }

    @Test
    void aHistoryMemorySupersededByAFactIsRefused() {
        assertArchiveRefused(
                base -> base.supersede(base.history(), base.fact("Berlin").path("id")), "supersededBy", "history");
    }

    @Test
    void aChainOfSupersessionsOfAnyLengthAsTheServiceExportsItRoundTrips() {
        String key = api.newTenant();
        String userId = "chain-" + tag;
        String previous = api.addFact(key, userId, "Address 0 " + tag, "supersedes", List.of());
        for (int i = 1; i < 30; i++) {
            previous = api.addFact(key, userId, "Address " + i + " " + tag, "supersedes", List.of(previous));
        }

        Api.Response imported =
                importArchive(key, userId + "-copy", export(key, userId).getBytes(StandardCharsets.UTF_8));

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        List<JsonNode> live = items(api.get(key, "/memory?userId=" + userId + "-copy"));
        assertThat(live)
                .singleElement()
                .satisfies(m -> assertThat(m.path("text").asString()).startsWith("Address 29"));
        assertThat(items(api.get(key, "/memory?userId=" + userId + "-copy&includeSuperseded=true&limit=100")))
                .hasSize(30);
    }

    // The header, the text, the vectors.

    @Test
    void aVersionThatIsNotAnIntegerIsRefusedNotReadAsOne() {
        assertArchiveRefused(base -> base.header().put("version", 1.5), "version", "1.5");
    }

    @Test
    void overlongUtf8IsRefusedNotStoredAsTheCharacterItSpellsOut() {
        Base base = new Base();
        base.fact("Paris").put("text", "The user lives in Paris SLASH " + tag);
        byte[] archive = base.bytes();
        String text = new String(archive, StandardCharsets.ISO_8859_1).replace("SLASH", "\u00C0\u00AF");
        String userId = "copy-" + tag;
        assertRefused(
                base, importArchive(base.key, userId, text.getBytes(StandardCharsets.ISO_8859_1)), userId, "UTF-8");
    }

    @Test
    void aFactLongerThanPostMemoryAcceptsIsRefusedNamingText() {
        assertArchiveRefused(base -> base.fact("Paris").put("text", "x".repeat(20_001)), "text", "20000");
    }

    @Test
    void aFiveMegabyteMemoryTextIsRefusedNamingText() {
        assertArchiveRefused(base -> base.history().put("text", "x".repeat(5 << 20)), "text");
    }

    /** Every dimension of a vector at one value: 0 has no direction, 3e38 a norm no float holds. */
    @ParameterizedTest(name = "every dimension {0}")
    @ValueSource(floats = {0f, 3e38f, -3e38f, 1e-30f})
    void aVectorWithoutAUsableNormIsRecomputedSoSearchScoresStayNumbers(float value) {
        Base base = new Base();
        ObjectNode fact = base.fact("Berlin");
        int dimensions = Base64.getDecoder().decode(fact.path("embedding").asString()).length / 4;
        ByteBuffer vector = ByteBuffer.allocate(dimensions * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < dimensions; i++) {
            vector.putFloat(value);
        }
        fact.put("embedding", Base64.getEncoder().encodeToString(vector.array()));
        String userId = "copy-" + tag;

        Api.Response imported = importArchive(base.key, userId, base.bytes());

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(imported.body().path("reembedded").asInt()).isEqualTo(1);
        Api.Response found = api.get(base.key, "/memory?userId=" + userId + "&query=Berlin&mode=dense");
        assertThat(found.status()).as(found.raw()).isEqualTo(200);
        assertThat(items(found))
                .isNotEmpty()
                .allSatisfy(m ->
                        assertThat(m.path("score").isNumber()).as(m.toString()).isTrue());
    }

    // Instants and ids in archives.

    static Stream<Arguments> unstorableArchiveInstants() {
        List<Arguments> cases = new ArrayList<>();
        for (Object instant : UNSTORABLE_INSTANTS) {
            cases.add(Arguments.of("memory", "createdAt", instant));
        }
        for (String field : List.of("occurredFrom", "expiresAt", "validTo")) {
            cases.add(Arguments.of("memory", field, "+1000000000-12-31T23:59:59Z"));
        }
        cases.add(Arguments.of("turn", "occurredAt", "-1000000000-01-01T00:00:00Z"));
        cases.add(Arguments.of("session", "closedAt", 31556889864403199L));
        cases.add(Arguments.of("revision", "createdAt", "+294277-01-01T00:00:00Z"));
        cases.add(Arguments.of("episode", "updatedAt", "+294277-01-01T00:00:00Z"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}.{1} = {2}")
    @MethodSource("unstorableArchiveInstants")
    void anArchivedInstantPostgresqlCannotStoreIsRefusedNamingTheField(String type, String field, Object instant) {
        assertArchiveRefused(
                base -> {
                    ObjectNode line = base.of(type, 0);
                    if (instant instanceof Long number) {
                        line.put(field, number);
                    } else {
                        line.put(field, (String) instant);
                    }
                },
                field);
    }

    @Test
    void aNullAmongAMemorysTurnIdsIsRefusedNamingTurnIds() {
        assertArchiveRefused(base -> ((ArrayNode) base.history().path("turnIds")).addNull(), "turnIds");
    }

    @Test
    void aNullAmongARevisionsAbsorbedTurnIdsIsRefusedNamingAbsorbedTurnIds() {
        assertArchiveRefused(
                base -> base.of("revision", 0)
                        .put("absorbedText", "Merged.")
                        .putArray("absorbedTurnIds")
                        .addNull(),
                "absorbedTurnIds");
    }

    // Instants in requests.

    @Test
    void anInstantPostgresqlCannotStoreInPostMemoryIsRefusedNamingTheField() {
        String key = api.newTenant();
        for (Object instant : UNSTORABLE_INSTANTS) {
            assertBadField(api.addMemory(key, "u-" + tag, "Expiring " + tag, "expiresAt", instant), "expiresAt");
            assertBadField(api.addMemory(key, "u-" + tag, "Said " + tag, "occurredAt", instant), "occurredAt");
        }
        assertThat(items(api.get(key, "/memory?userId=u-" + tag))).isEmpty();
    }

    @Test
    void anExpiryPostgresqlCannotStoreInPatchMemoryIsRefusedNamingExpiresAt() {
        String key = api.newTenant();
        String id = api.addFact(key, "u-" + tag, "Alice is in Lisbon " + tag);
        for (Object instant : UNSTORABLE_INSTANTS) {
            assertBadField(api.send("PATCH", "/memory/" + id, key, Json.object("expiresAt", instant)), "expiresAt");
        }
        assertThat(api.get(key, "/memory/" + id).body().has("expiresAt")).isFalse();
    }

    @Test
    void anInstantPostgresqlCannotStoreAsAnMcpArgumentIsRefusedNamingIt() {
        McpSyncClient mcp = api.mcp(api.newTenant());
        try {
            CallToolResult refused = mcp.callTool(new CallToolRequest(
                    "add_memory",
                    Map.of(
                            "userId",
                            "u-" + tag,
                            "text",
                            "Expiring " + tag,
                            "expiresAt",
                            "+1000000000-12-31T23:59:59Z")));
            String text = ((TextContent) refused.content().getFirst()).text();
            assertThat(refused.isError()).as(text).isTrue();
            assertThat(text).startsWith("invalid-request").contains("expiresAt");
        } finally {
            mcp.close();
        }
    }

    @Test
    void theLatestInstantPostgresqlStoresIsAcceptedAndReadBack() {
        String key = api.newTenant();
        Api.Response added =
                api.addMemory(key, "u-" + tag, "Far future " + tag, "expiresAt", "+294276-12-31T23:59:59Z");
        assertThat(added.status()).as(added.raw()).isEqualTo(201);
        Api.Response read = api.get(key, "/memory/" + added.text("id"));
        assertThat(read.text("expiresAt")).isEqualTo("+294276-12-31T23:59:59Z");
    }

    @Test
    void aTurnSaidAtAnInstantPostgresqlCannotStoreIsRefusedNamingTheTurn() {
        String key = api.newTenant();
        String session = api.newSession(key, "u-" + tag, null);
        Api.Response refused = api.send(
                "POST",
                "/sessions/" + session + "/turns",
                key,
                Json.object(
                        "turns",
                        List.of(Json.fields(
                                "role", "user", "content", "Hello", "occurredAt", "-1000000000-01-01T00:00:00Z"))));
        assertBadField(refused, "turns[0].occurredAt");
    }

    @Test
    void aQueryInstantPostgresqlCannotStoreIsRefusedNamingTheParameterInListsAndSearches() {
        String key = api.newTenant();
        api.addFact(key, "u-" + tag, "Alice is in Lisbon " + tag);
        for (String instant :
                List.of("-1000000000-01-01T00:00:00Z", "+1000000000-12-31T23:59:59Z", "-4713-11-23T23:59:59Z")) {
            for (String parameter : List.of("asOf", "from", "to")) {
                for (String query : List.of("", "&query=Lisbon")) {
                    if (parameter.equals("asOf") && instant.startsWith("+")) {
                        continue; // in the future: refused as such already
                    }
                    assertBadField(
                            api.get(key, "/memory?userId=u-" + tag + query + "&" + parameter + "=" + instant),
                            parameter);
                }
            }
        }
    }

    // memory_revisions references its memory.

    @Test
    void aRevisionOfNoMemoryCannotBeStoredAndOneAnOlderInstanceWritesGetsItsMemorysUser() {
        String key = api.newTenant();
        String id = api.addFact(key, "u-" + tag, "Alice is in Lisbon " + tag);
        UUID tenant = jdbc.sql("select tenant_id from memory_records where id = ?")
                .param(UUID.fromString(id))
                .query(UUID.class)
                .single();

        assertThatThrownBy(() -> jdbc.sql("""
                insert into memory_revisions (id, tenant_id, user_id, memory_id, version, text, reason, created_at)
                values (?, ?, ?, ?, 1, 'orphan', 'created', now())""")
                        .params(UUID.randomUUID(), tenant, "u-" + tag, UUID.randomUUID())
                        .update())
                .isInstanceOf(DataIntegrityViolationException.class);

        // As an instance from before the user column writes a revision, during a rolling upgrade.
        UUID revision = UUID.randomUUID();
        jdbc.sql("""
                insert into memory_revisions (id, memory_id, version, text, reason, created_at)
                values (?, ?, 7, 'older', 'edit', now())""").params(revision, UUID.fromString(id)).update();
        assertThat(jdbc.sql("select user_id from memory_revisions where id = ?")
                        .param(revision)
                        .query(String.class)
                        .single())
                .isEqualTo("u-" + tag);

        assertThat(api.send("DELETE", "/memory?userId=u-" + tag, key, null).status())
                .isEqualTo(200);
        assertThat(jdbc.sql("select count(*) from memory_revisions where tenant_id = ?")
                        .param(tenant)
                        .query(Integer.class)
                        .single())
                .as("erasing the user leaves no revision")
                .isZero();
    }
}
