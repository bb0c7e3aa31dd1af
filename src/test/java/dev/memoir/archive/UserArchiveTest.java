package dev.memoir.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class UserArchiveTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private String export(String key, String userId) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://localhost:" + api.port() + "/users/" + userId + "/export"))
                                .header("Authorization", "Bearer " + key)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/x-ndjson"));
        return response.body();
    }

    private Api.Response importArchive(String key, String userId, String archive) {
        return api.sendWithHeadersAsResponse(
                "POST", "/users/" + userId + "/import", key, archive, "Content-Type", "application/x-ndjson");
    }

    /** A user with something of everything: dialogue, notes, a summary, facts superseded and expiring, a long
     * memory with passages, an edit, and a learning episode with its feedback and reflected memory. */
    private void richUser(String key, String userId) {
        String multiView = "{\"strategy\": \"multi-view\", \"reflectionRounds\": 0}";
        String session = api.newSession(key, userId, multiView);
        String fact = "I am allergic to peanuts " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(fact),
                call -> Answer.json("{\"reply\": \"Noted.\", \"remember\": true}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(fact),
                call -> Answer.json(
                        "{\"context\": \"NaN\", \"summary\": \"Food.\", \"note\": \"The user is allergic to peanuts.\"}"));
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions(fact),
                call -> Answer.sessionSummary("The user said they are allergic to peanuts " + tag + "."));
        api.chat(key, session, fact);
        eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=" + userId + "&kind=conditional"), "conditional"),
                        list -> list.size() == 1);
        api.importTurns(
                key,
                session,
                "And I live in Porto " + tag + ". " + "We walk by the river a lot. ".repeat(80),
                "Porto is lovely.");
        api.close(key, session);
        eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=" + userId + "&kind=summary"), "summary"),
                        list -> list.size() == 1);

        String paris = api.addFact(
                key,
                userId,
                userId + " lives in Paris " + tag,
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        api.addMemory(
                key,
                userId,
                userId + " moved to Berlin " + tag,
                "occurredAt",
                "2024-06-01T00:00:00Z",
                "supersedes",
                List.of(paris));
        String trip = api.addFact(
                key,
                userId,
                userId + " is in Lisbon this week " + tag,
                "supersedes",
                List.of(),
                "expiresAt",
                Instant.now().plus(Duration.ofDays(3)));
        api.send(
                "PATCH",
                "/memory/" + trip,
                key,
                Json.object("text", userId + " is in Lisbon and Sintra this week " + tag));

        String asking = api.newSession(key, userId, multiView);
        String question = "Where do I live? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"In Paris.\", \"remember\": false, \"citations\": []}"));
        String turnId = api.chat(key, asking, question).text("turnId");
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json(
                        "{\"reflected_memory\": \"The user lives in Berlin since June 2024 " + tag + ".\"}"));
        Api.Response feedback = api.send(
                "POST", "/reflection/feedback", key, Json.object("turnId", turnId, "answer", "I live in Berlin now."));
        assertThat(feedback.status()).as(feedback.raw()).isEqualTo(200);
    }

    /**
     * Everything the API lists for a user, with ids replaced by their order of first appearance; and what searches
     * find, as sets: the dense ranking comes from an approximate (HNSW) index, whose graph differs between the two
     * users' partitions, so the order of near ties may too.
     */
    private static final Pattern ORIGIN =
            Pattern.compile(",\"source\":\"([^\"]*)\",\"sourceDetail\":(null|\"[^\"]*\"),\"trust\":\"([a-z]+)\"");

    /** The listing without where each turn and memory came from, which a restore records anew. */
    private static String withoutOrigins(String listed) {
        return ORIGIN.matcher(listed).replaceAll("").replaceAll(",\"origin\":\"[a-z]+\"", "");
    }

    private String listings(String key, String userId) {
        List<String> parts = new ArrayList<>();
        JsonNode sessions = api.get(key, "/sessions?userId=" + userId).body();
        parts.add(sessions.toString());
        for (JsonNode session : sessions.path("items")) {
            ObjectNode full = (ObjectNode)
                    api.get(key, "/sessions/" + session.path("id").asString()).body();
            full.remove("jobs");
            parts.add(full.toString());
        }
        JsonNode memories = api.get(key, "/memory?userId=" + userId + "&includeSuperseded=true&limit=100")
                .body();
        parts.add(memories.toString());
        for (JsonNode memory : memories.path("items")) {
            parts.add(api.get(key, "/memory/" + memory.path("id").asString() + "/revisions")
                    .body()
                    .toString());
        }
        parts.add(api.get(key, "/memory?userId=" + userId + "&asOf=2024-03-01T00:00:00Z")
                .body()
                .toString());
        Map<String, String> seen = new LinkedHashMap<>();
        // A memory told through the API names its key in its source: not an id of the user's data.
        String listed = withoutIds(String.join("\n", parts).replaceAll("key:[0-9a-f-]{36}", "key:*"), seen);
        List<String> found = new ArrayList<>();
        for (String query : List.of("where%20does%20the%20user%20live", "river%20walks", "peanuts")) {
            found.add(items(api.get(key, "/memory?userId=" + userId + "&query=" + query + "&limit=10")).stream()
                    .map(m -> seen.getOrDefault(m.path("id").asString(), "?") + " "
                            + m.path("text").asString())
                    .sorted()
                    .collect(Collectors.joining(" | ")));
        }
        return listed + "\n" + String.join("\n", found);
    }

    private static String withoutIds(String text, Map<String, String> seen) {
        Matcher matcher = UUID_TEXT.matcher(text);
        return matcher.replaceAll(m -> seen.computeIfAbsent(m.group(), id -> "#" + (seen.size() + 1)));
    }

    @Test
    void aUserExportedAndImportedAsAnotherUserOfAnotherTenantListsTheSameApartFromIds() throws Exception {
        String key = api.newTenant();
        richUser(key, "ada");
        String archive = export(key, "ada");
        List<JsonNode> lines = archive.lines().map(JSON::readTree).toList();
        assertThat(lines.getFirst().path("type").asString()).isEqualTo("memoir-user-archive");
        assertThat(lines.getFirst().path("version").asInt()).isEqualTo(1);
        assertThat(lines.getLast().path("type").asString()).isEqualTo("end");
        assertThat(lines.stream().map(l -> l.path("type").asString()).distinct().toList())
                .containsExactly(
                        "memoir-user-archive",
                        "session",
                        "turn",
                        "memory",
                        "revision",
                        "passage",
                        "episode",
                        "feedback",
                        "end");

        String otherKey = api.newTenant();
        Api.Response imported = importArchive(otherKey, "ada-moved", archive);

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(imported.body().path("counts").path("memory").asLong())
                .isEqualTo(lines.stream()
                        .filter(l -> l.path("type").asString().equals("memory"))
                        .count());
        assertThat(imported.body().path("reembedded").asInt())
                .as("same embedding model: vectors reused")
                .isZero();
        String moved = listings(otherKey, "ada-moved").replace("ada-moved", "ada");
        String original = listings(key, "ada");
        assertThat(withoutOrigins(moved)).isEqualTo(withoutOrigins(original));
        // Apart from where each turn and memory came from: restored from an archive, trusted at most medium.
        assertThat(moved).doesNotContain("\"origin\":\"live\"").contains("\"origin\":\"archive\"");
        assertThat(ORIGIN.matcher(moved)
                        .results()
                        .map(m -> m.group(1))
                        .distinct()
                        .toList())
                .containsExactly("archive");
        assertThat(ORIGIN.matcher(moved)
                        .results()
                        .map(m -> m.group(3))
                        .distinct()
                        .toList())
                .doesNotContain("high");
        assertThat(ORIGIN.matcher(original)
                        .results()
                        .map(m -> m.group(1))
                        .distinct()
                        .toList())
                .contains("user-turn", "client")
                .doesNotContain("archive");
        String again = export(otherKey, "ada-moved");
        assertThat(again.lines().count()).isEqualTo(archive.lines().count());
        assertThat(UUID_TEXT.matcher(again).results().map(MatchResult::group).collect(Collectors.toSet()))
                .as("every id is new")
                .doesNotContainAnyElementsOf(UUID_TEXT
                        .matcher(archive)
                        .results()
                        .map(MatchResult::group)
                        .collect(Collectors.toSet()));
    }

    @Test
    void vectorsOfAnotherEmbeddingModelAreRecomputedAndSearchStillFindsTheMemories() throws Exception {
        String key = api.newTenant();
        api.addMemory(key, "bo", "Bo keeps bees on the roof " + tag, "supersedes", List.of());
        String archive = export(key, "bo")
                .lines()
                .map(line -> {
                    ObjectNode node = (ObjectNode) JSON.readTree(line);
                    if (node.has("embeddingModel")) {
                        node.put("embeddingModel", "some-other-model");
                    }
                    return node.toString();
                })
                .collect(Collectors.joining("\n"));

        Api.Response imported = importArchive(key, "bo-copy", archive);

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(imported.body().path("reembedded").asInt()).isEqualTo(1);
        JsonNode found = items(api.get(key, "/memory?userId=bo-copy&query=beekeeping&mode=dense"))
                .getFirst();
        assertThat(found.path("text").asString()).startsWith("Bo keeps bees");
        assertThat(found.path("score").asDouble()).isPositive();
    }

    @Test
    void aMalformedOrTruncatedArchiveIsRefusedWholeNamingTheLineAndNothingOfItIsStored() throws Exception {
        String key = api.newTenant();
        richUser(key, "cy");
        String archive = export(key, "cy");
        List<String> lines = archive.lines().toList();
        int firstMemory = lines.indexOf(lines.stream()
                .filter(l -> l.contains("\"type\":\"memory\""))
                .findFirst()
                .orElseThrow());
        List<String> badMemory = new ArrayList<>(lines);
        badMemory.set(
                firstMemory + 1,
                badMemory.get(firstMemory + 1).replaceFirst("\"kind\":\"[a-z_]+\"", "\"kind\":\"diary\""));
        List<String> danglingTurn = new ArrayList<>(lines);
        int firstTurn = lines.indexOf(lines.stream()
                .filter(l -> l.contains("\"type\":\"turn\""))
                .findFirst()
                .orElseThrow());
        danglingTurn.set(
                firstTurn,
                danglingTurn
                        .get(firstTurn)
                        .replaceFirst("\"sessionId\":\"[0-9a-f-]+\"", "\"sessionId\":\"" + UUID.randomUUID() + "\""));

        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("cut short", String.join("\n", lines.subList(0, lines.size() - 1)));
        cases.put("an unknown memory kind", String.join("\n", badMemory));
        cases.put("a turn of no session", String.join("\n", danglingTurn));
        cases.put(
                "counts that differ",
                String.join("\n", lines.subList(0, lines.size() - 1)) + "\n"
                        + lines.getLast().replaceFirst("\"memory\":\\d+", "\"memory\":999"));
        cases.put("not JSON", String.join("\n", lines.subList(0, 5)) + "\n{oops\n" + lines.getLast());
        cases.put(
                "another version", lines.getFirst().replace("\"version\":1", "\"version\":7") + "\n" + lines.getLast());
        cases.put("no header", String.join("\n", lines.subList(1, lines.size())));
        cases.put("empty", "");

        for (Map.Entry<String, String> bad : cases.entrySet()) {
            Api.Response refused = importArchive(key, "cy-copy", bad.getValue());
            assertThat(refused.status()).as(bad.getKey() + ": " + refused.raw()).isEqualTo(400);
            assertThat(refused.text("code")).as(bad.getKey()).isEqualTo("invalid-archive");
            assertThat(refused.text("detail")).as(bad.getKey()).containsAnyOf("Line ", "line ", "end line");
            assertThat(items(api.get(key, "/memory?userId=cy-copy&includeSuperseded=true")))
                    .as(bad.getKey())
                    .isEmpty();
            assertThat(items(api.get(key, "/sessions?userId=cy-copy")))
                    .as(bad.getKey())
                    .isEmpty();
        }
    }

    @Test
    void anArchiveIsImportedOnlyIntoAUserWithoutDataAndAnUnknownUserHasNothingToExport() throws Exception {
        String key = api.newTenant();
        api.addMemory(key, "di", "Di sings " + tag);
        String archive = export(key, "di");

        Api.Response taken = importArchive(key, "di", archive);

        assertThat(taken.status()).isEqualTo(409);
        assertThat(taken.text("code")).isEqualTo("user-not-empty");
        assertThat(api.get(key, "/users/nobody-" + tag + "/export").status()).isEqualTo(404);
        assertThat(importArchive(api.newTenant(), "di", archive).status())
                .as("another tenant's user")
                .isEqualTo(201);
    }
}
