package dev.memoir.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** An import takes what real chat exports hold: the turns of the dialogue are stored, the rest is skipped, per turn. */
class ChatLogImportTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void systemToolAndInvisibleMessagesAreSkippedAndTheDialogueStoredWithItsHistory() {
        String key = api.newTenant();
        String session = api.newSession(key, "exporter", null);

        Api.Response imported = api.send("POST", "/sessions/" + session + "/turns", key, """
                {"turns": [
                  {"role": "system", "content": "You are a helpful assistant."},
                  {"role": "user", "content": "I moved to Porto last year %s"},
                  {"role": "assistant", "content": null},
                  {"role": "tool", "content": "{\\"weather\\": \\"sunny\\"}"},
                  {"role": "user", "content": "\\u200b"},
                  {"role": "Assistant", "content": "How exciting! %s"},
                  {"role": "developer", "content": "Be brief."},
                  {"role": "function", "content": ""}
                ]}""".formatted(tag, tag));

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        assertThat(imported.body().path("turns").findValuesAsString("content"))
                .containsExactly("I moved to Porto last year " + tag, "How exciting! " + tag);
        assertThat(imported.body().path("skipped"))
                .extracting(skipped -> skipped.path("index").asInt() + " "
                        + skipped.path("role").asString() + ": "
                        + skipped.path("reason").asString())
                .containsExactly(
                        "0 system: a system message is not a turn of the dialogue",
                        "2 assistant: it has no visible text",
                        "3 tool: a tool message is not a turn of the dialogue",
                        "4 user: it has no visible text",
                        "6 developer: a developer message is not a turn of the dialogue",
                        "7 function: a function message is not a turn of the dialogue");
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).hasSize(2);
        List<JsonNode> history = ofKind(api.get(key, "/memory?userId=exporter"), "history");
        assertThat(history)
                .extracting(m -> m.path("text").asString())
                .containsExactlyInAnyOrder(
                        "User: I moved to Porto last year " + tag, "Assistant: How exciting! " + tag);
    }

    @Test
    void anErrorInATurnAfterSkippedOnesNamesItByItsPlaceInTheRequest() {
        String key = api.newTenant();
        String session = api.newSession(key, "late", null);

        Api.Response refused = api.send("POST", "/sessions/" + session + "/turns", key, """
                {"turns": [
                  {"role": "system", "content": "Be kind.", "occurredAt": "2024-05-02T10:00:00Z"},
                  {"role": "user", "content": "Hello", "occurredAt": "2024-05-02T10:00:00Z"},
                  {"role": "tool", "content": "ok", "occurredAt": "2024-05-02T10:00:00Z"},
                  {"role": "assistant", "content": "Hi!", "occurredAt": "2024-05-01T09:00:00Z"}
                ]}""");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("errors").findValuesAsString("field")).containsExactly("turns[3].occurredAt");
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).isEmpty();
    }

    @Test
    void anImportOfNothingButSkippedMessagesStoresNothingAndAClosedSessionStillRefusesIt() {
        String key = api.newTenant();
        String session = api.newSession(key, "quiet", null);
        String body = "{\"turns\": [{\"role\": \"system\", \"content\": \"You are terse.\"}]}";

        Api.Response imported = api.send("POST", "/sessions/" + session + "/turns", key, body);

        assertThat(imported.status()).isEqualTo(201);
        assertThat(imported.body().path("turns")).isEmpty();
        assertThat(imported.body().path("skipped")).hasSize(1);
        api.close(key, session);
        assertThat(api.send("POST", "/sessions/" + session + "/turns", key, body)
                        .status())
                .isEqualTo(409);
    }

    @Test
    void anUnknownRoleIsRefusedListingTheAcceptedRolesAndNoJavaName() {
        String key = api.newTenant();
        String session = api.newSession(key, "narrated", null);

        Api.Response refused = api.send(
                "POST",
                "/sessions/" + session + "/turns",
                key,
                "{\"turns\": [{\"role\": \"narrator\", \"content\": \"Once upon a time\"}]}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("errors").findValuesAsString("field")).containsExactly("turns[0].role");
        assertThat(refused.text("detail"))
                .isEqualTo("turns[0].role has an invalid value: unknown role 'narrator'; "
                        + "accepted: user, assistant, system, developer, tool, function");
    }

    @Test
    void aNamedSpeakerIsStoredWithTheTurnAndNamesItsHistoryMemory() {
        String key = api.newTenant();
        String session = api.newSession(key, "two-friends", null);

        Api.Response imported = api.send("POST", "/sessions/" + session + "/turns", key, """
                {"turns": [
                  {"role": "user", "speaker": "  Caroline ", "content": "I adopted a puppy %s"},
                  {"role": "assistant", "speaker": "Melanie", "content": "What is its name? %s"},
                  {"role": "user", "speaker": " ", "content": "Biscuit %s"}
                ]}""".formatted(tag, tag, tag));

        assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        assertThat(turns)
                .extracting(turn -> turn.path("speaker").isNull()
                        ? null
                        : turn.path("speaker").asString())
                .containsExactly("Caroline", "Melanie", null);
        assertThat(ofKind(api.get(key, "/memory?userId=two-friends"), "history"))
                .extracting(m -> m.path("text").asString())
                .containsExactlyInAnyOrder(
                        "Caroline: I adopted a puppy " + tag,
                        "Melanie: What is its name? " + tag,
                        "User: Biscuit " + tag);
    }

    @Test
    void aSpeakerNameOnSeveralLinesWithFormatCharactersOrTooLongIsRefusedAndNothingStored() {
        String key = api.newTenant();
        String session = api.newSession(key, "named", null);

        Api.Response refused = api.send("POST", "/sessions/" + session + "/turns", key, """
                {"turns": [
                  {"role": "user", "speaker": "Caro\\nline", "content": "Hello"},
                  {"role": "assistant", "speaker": "%s", "content": "Hi"},
                  {"role": "user", "speaker": "Caro\\u2028line", "content": "Hello again"},
                  {"role": "assistant", "speaker": "\\u202eenilaroC", "content": "Hi again"}
                ]}""".formatted("M".repeat(101)));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("errors").findValuesAsString("field"))
                .as(refused.raw())
                .containsExactlyInAnyOrder(
                        "turns[0].speaker", "turns[1].speaker", "turns[2].speaker", "turns[3].speaker");
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).isEmpty();
    }
}
