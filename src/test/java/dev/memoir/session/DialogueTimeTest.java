package dev.memoir.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class DialogueTimeTest extends IntegrationTest {

    private static Map<String, Object> turn(String role, String content, String occurredAt) {
        Map<String, Object> turn = Json.fields("role", role, "content", content);
        if (occurredAt != null) {
            turn.put("occurredAt", occurredAt);
        }
        return turn;
    }

    private Api.Response importTurns(String key, String session, Map<?, ?>... turns) {
        return api.send("POST", "/sessions/" + session + "/turns", key, Json.object("turns", List.of(turns)));
    }

    @Test
    void importedTurnsKeepWhenTheyWereSaidAndTheirMemoriesCarryThatTime() {
        String key = api.newTenant();
        String session = api.newSession(key, "fay", null);
        Api.Response imported = importTurns(
                key,
                session,
                turn("user", "In May I hiked the Rota Vicentina trail.", "2023-05-08T13:56:00Z"),
                turn("assistant", "What a walk!", "2023-05-08T13:57:00Z"),
                turn("user", "In July I started pottery classes.", "2023-07-02T09:00:00Z"));
        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(imported.body().path("turns").get(0).path("occurredAt").asString())
                .isEqualTo("2023-05-08T13:56:00Z");

        List<JsonNode> history = items(api.get(key, "/memory?userId=fay&kind=history"));
        assertThat(history)
                .extracting(m -> m.path("occurredFrom").asString())
                .containsExactlyInAnyOrder("2023-05-08T13:56:00Z", "2023-05-08T13:57:00Z", "2023-07-02T09:00:00Z");
    }

    @Test
    void sessionsAndUsersShowWhenTheirDialogueWasSaidNotWhenItWasImported() {
        String key = api.newTenant();
        String session = api.newSession(key, "eli", null);
        assertThat(api.get(key, "/sessions/" + session).body().has("dialogueFrom"))
                .isFalse();

        importTurns(
                key,
                session,
                turn("user", "We moved to Lisbon this spring.", "2023-03-20T18:00:00Z"),
                turn("assistant", "Congratulations on the move!", "2023-03-20T18:01:00Z"));
        importTurns(key, session, turn("user", "The boxes are finally unpacked.", "2023-04-02T08:30:00Z"));

        JsonNode read = api.get(key, "/sessions/" + session).body();
        assertThat(read.path("dialogueFrom").asString()).isEqualTo("2023-03-20T18:00:00Z");
        assertThat(read.path("dialogueTo").asString()).isEqualTo("2023-04-02T08:30:00Z");
        assertThat(Instant.parse(read.path("updatedAt").asString())).isAfter(Instant.parse("2026-01-01T00:00:00Z"));
        JsonNode listed = items(api.get(key, "/sessions?userId=eli")).getFirst();
        assertThat(listed.path("dialogueTo").asString()).isEqualTo("2023-04-02T08:30:00Z");

        JsonNode user = items(api.get(key, "/users")).stream()
                .filter(u -> u.path("userId").asString().equals("eli"))
                .findFirst()
                .orElseThrow();
        assertThat(user.path("lastSaidAt").asString()).isEqualTo("2023-04-02T08:30:00Z");
        assertThat(Instant.parse(user.path("lastActiveAt").asString())).isAfter(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void fromToAndSessionFiltersKeepOnlyMemoriesOfThatTimeAndSession() {
        String key = api.newTenant();
        String may = api.newSession(key, "gus", null);
        importTurns(key, may, turn("user", "I hiked a coastal trail with friends.", "2023-05-08T13:56:00Z"));
        api.close(key, may);
        String july = api.newSession(key, "gus", null);
        importTurns(key, july, turn("user", "I hiked up a volcano with friends.", "2023-07-02T09:00:00Z"));

        List<JsonNode> inMay = items(api.get(
                key, "/memory?userId=gus&kind=history&query=hiked&from=2023-05-01T00:00:00Z&to=2023-06-01T00:00:00Z"));
        assertThat(inMay)
                .extracting(m -> m.path("text").asString())
                .containsExactly("User: I hiked a coastal trail with friends.");
        List<JsonNode> listedInJuly = items(api.get(key, "/memory?userId=gus&from=2023-07-01T00:00:00Z"));
        assertThat(listedInJuly)
                .extracting(m -> m.path("text").asString())
                .containsExactly("User: I hiked up a volcano with friends.");
        List<JsonNode> ofMaySession =
                items(api.get(key, "/memory?userId=gus&kind=history&query=hiked&sessionId=" + may));
        assertThat(ofMaySession)
                .extracting(m -> m.path("provenance").path("sessionId").asString())
                .containsOnly(may);

        Api.Response backwards = api.get(key, "/memory?userId=gus&from=2023-07-01T00:00:00Z&to=2023-06-01T00:00:00Z");
        assertThat(backwards.status()).isEqualTo(400);
        assertThat(backwards.body().path("errors").findValuesAsString("field")).containsExactly("to");
    }

    @Test
    void turnsOutOfOrderOrInTheFutureAreRefusedNamingTheTurnAndNothingIsStored() {
        String key = api.newTenant();
        String session = api.newSession(key, "hal", null);

        Api.Response outOfOrder = importTurns(
                key,
                session,
                turn("user", "second thing", "2023-05-08T14:00:00Z"),
                turn("assistant", "first thing?", "2023-05-08T13:00:00Z"));
        assertThat(outOfOrder.status()).isEqualTo(400);
        assertThat(outOfOrder.body().path("errors").findValuesAsString("field")).containsExactly("turns[1].occurredAt");

        Api.Response future = importTurns(
                key,
                session,
                turn(
                        "user",
                        "from the future",
                        Instant.now().plusSeconds(86_400).toString()));
        assertThat(future.status()).isEqualTo(400);
        assertThat(future.body().path("errors").findValuesAsString("field")).containsExactly("turns[0].occurredAt");

        Api.Response malformed = importTurns(key, session, turn("user", "when?", "last tuesday"));
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.body().path("errors").findValuesAsString("field")).containsExactly("turns[0].occurredAt");

        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).isEmpty();

        importTurns(key, session, turn("user", "today", "2023-05-08T14:00:00Z"));
        Api.Response beforeStored = importTurns(key, session, turn("user", "yesterday", "2023-05-07T14:00:00Z"));
        assertThat(beforeStored.status()).isEqualTo(400);
        assertThat(beforeStored.text("detail")).contains("turns[0].occurredAt").contains("before");
    }

    @Test
    void theReplyPromptStatesTodayAndDatesEachMemoryBySession() {
        String key = api.newTenant();
        String past = api.newSession(key, "ida", null);
        importTurns(key, past, turn("user", "I planted tulips along the fence.", "2023-04-11T10:00:00Z"));
        api.close(key, past);
        String session = api.newSession(key, "ida", "{\"reflectionRounds\": 0}");
        String tag = UUID.randomUUID().toString();

        api.chat(key, session, "When did I plant the tulips? " + tag);

        String system = fake.calls(c -> c.is(FakeOpenAiServer.Step.REPLY) && c.mentions(tag))
                .getFirst()
                .systemPrompt();
        assertThat(system).contains("today is " + LocalDate.now(ZoneOffset.UTC));
        // The closed session's summary, when its job has run by then, is grouped under the same session line.
        assertThat(system)
                .containsPattern(
                        "Session of 2023-04-11:\n(\\d+\\. \\[summary\\] .*\n)?\\d+\\. User: I planted tulips along the fence\\.");
    }
}
