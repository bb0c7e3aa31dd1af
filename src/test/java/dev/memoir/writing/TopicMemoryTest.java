package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class TopicMemoryTest extends IntegrationTest {

    private static final String RMM = "{\"strategy\": \"rmm\"}";

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private String key;

    private List<JsonNode> topics() {
        return ofKind(api.get(key, "/memory?userId=sam&kind=topic&limit=50"), "topic");
    }

    private List<String> turnIds(String session) {
        return api.get(key, "/sessions/" + session).body().path("turns").findValuesAsString("id");
    }

    private static boolean extractionFor(ChatCall call, String speaker, String marker) {
        return call.is(Step.TOPIC_EXTRACTION)
                && call.mentions(marker)
                && call.lastUserMessage().contains("personal summaries of the " + speaker + " from");
    }

    /** A closed rmm session whose USER extraction is scripted; the ASSISTANT shows no trait. */
    private String closedSession(String marker, String userExtraction, String... turns) {
        String session = api.newSession(key, "sam", RMM);
        api.importTurns(key, session, turns);
        onModelCall(call -> extractionFor(call, "USER", marker), call -> Answer.json(userExtraction));
        onModelCall(
                call -> extractionFor(call, "ASSISTANT", marker), call -> Answer.json("{\"extracted_memories\": []}"));
        api.close(key, session);
        return session;
    }

    @Test
    void closingASessionExtractsPerSpeakerSummariesWithTheirTurns() {
        key = api.newTenant();
        String session = closedSession(
                tag,
                """
                {"extracted_memories": [
                  {"summary": "USER runs every morning before work.", "reference": [0]},
                  {"summary": "USER lives in Lisbon and loves its hills.", "reference": [2, 0, 99]}]}""",
                "I run every morning before work " + tag,
                "Great habit!",
                "Lisbon's hills make it hard",
                "True.");

        List<JsonNode> topics = eventually().until(this::topics, list -> list.size() == 2);

        List<String> turns = turnIds(session);
        JsonNode lisbon = topics.stream()
                .filter(t -> t.path("text").asString().contains("Lisbon"))
                .findFirst()
                .orElseThrow();
        assertThat(lisbon.path("speaker").asString()).isEqualTo("user");
        assertThat(lisbon.path("provenance").path("sessionId").asString()).isEqualTo(session);
        assertThat(lisbon.path("provenance").path("turnIds").valueStream().map(JsonNode::asString))
                .containsExactly(turns.get(2), turns.get(0));
        assertThat(topics)
                .allSatisfy(t -> assertThat(t.path("speaker").asString()).isEqualTo("user"));
        ChatCall assistantExtraction =
                fake.calls(c -> extractionFor(c, "ASSISTANT", tag)).getFirst();
        assertThat(assistantExtraction.lastUserMessage()).contains("[Turn 1] ASSISTANT: Great habit!");
    }

    @Test
    void anAddedTopicMemoryOfTheUserSupersedesTheFactItUpdatesAfterOneJudgement() {
        key = api.newTenant();
        String fact = api.addFact(
                key,
                "sam",
                "Sam lives in Porto " + tag + ".",
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        onModelCall(
                call -> call.is(Step.SUPERSESSION) && call.mentions("USER now lives in Lisbon " + tag),
                call -> Answer.json("{\"relations\": [{\"index\": 0, \"relation\": \"updates\"}]}"));

        closedSession(
                tag,
                "{\"extracted_memories\": [{\"summary\": \"USER now lives in Lisbon " + tag
                        + ".\", \"reference\": [0]}]}",
                "We moved to Lisbon last week " + tag,
                "Welcome!");

        String topic = eventually()
                .until(this::topics, list -> list.size() == 1)
                .getFirst()
                .path("id")
                .asString();
        eventually()
                .untilAsserted(() -> assertThat(api.get(key, "/memory/" + fact).text("supersededBy"))
                        .isEqualTo(topic));
        ChatCall judged = fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("USER now lives in Lisbon " + tag))
                .getFirst();
        assertThat(judged.lastUserMessage()).contains("0. (said 2024-01-01) Sam lives in Porto " + tag);
    }

    @Test
    void aSimilarSummaryIsMergedIntoTheExistingMemoryWithARevisionThatKeepsWhatItAbsorbed() {
        key = api.newTenant();
        closedSession(
                tag,
                "{\"extracted_memories\": [{\"summary\": \"USER runs every morning.\", \"reference\": [0]}]}",
                "I run every morning " + tag,
                "Nice.");
        JsonNode original =
                eventually().until(this::topics, list -> list.size() == 1).getFirst();
        String second = tag + "-2";
        onModelCall(
                call -> call.is(Step.TOPIC_UPDATE) && call.mentions("USER trains for a marathon"),
                call -> Answer.json("""
                        {"actions": [{"action": "merge", "index": 0,
                          "merged_summary": "USER runs every morning and trains for a marathon."}]}"""));

        String session = closedSession(
                second,
                "{\"extracted_memories\": [{\"summary\": \"USER trains for a marathon.\", \"reference\": [0]}]}",
                "I am training for a marathon " + second,
                "Good luck!");

        JsonNode merged = eventually()
                .until(
                        this::topics,
                        list -> list.size() == 1
                                && list.getFirst().path("version").asInt() == 2)
                .getFirst();
        assertThat(merged.path("id").asString()).isEqualTo(original.path("id").asString());
        assertThat(merged.path("text").asString()).isEqualTo("USER runs every morning and trains for a marathon.");
        assertThat(merged.path("provenance").path("turnIds")).hasSize(2);
        assertThat(merged.path("provenance").path("turnIds").get(1).asString())
                .isEqualTo(turnIds(session).get(0));
        JsonNode revisions = api.get(key, "/memory/" + merged.path("id").asString() + "/revisions")
                .body()
                .path("items");
        assertThat(revisions.findValuesAsString("version")).containsExactly("2", "1");
        assertThat(revisions.get(0).path("reason").asString()).isEqualTo("merge");
        assertThat(revisions.get(0).path("sessionId").asString()).isEqualTo(session);
        assertThat(revisions.get(0).path("absorbed").path("text").asString()).isEqualTo("USER trains for a marathon.");
        assertThat(revisions.get(1).path("text").asString()).isEqualTo("USER runs every morning.");
        ChatCall update = fake.calls(c -> c.is(Step.TOPIC_UPDATE) && c.mentions("USER trains for a marathon"))
                .getFirst();
        assertThat(update.lastUserMessage()).contains("{\"history_summaries\":[\"USER runs every morning.\"]}");
    }

    @Test
    void invalidIndexesAndMalformedActionsAreIgnoredAndNothingIsLost() {
        key = api.newTenant();
        closedSession(
                tag,
                "{\"extracted_memories\": [{\"summary\": \"USER likes green tea.\", \"reference\": [0]}]}",
                "I like green tea " + tag,
                "Nice.");
        JsonNode original =
                eventually().until(this::topics, list -> list.size() == 1).getFirst();
        String second = tag + "-2";
        onModelCall(
                call -> call.is(Step.TOPIC_UPDATE) && call.mentions("USER drinks oolong"), call -> Answer.json("""
                        {"actions": [{"action": "merge", "index": 7, "merged_summary": "wrong"},
                                     {"action": "explode", "index": null, "merged_summary": null},
                                     {"action": "merge", "index": 0, "merged_summary": null}]}"""));

        closedSession(
                second,
                "{\"extracted_memories\": [{\"summary\": \"USER drinks oolong.\", \"reference\": [0]}]}",
                "I drink oolong " + second,
                "Nice.");

        List<JsonNode> topics = eventually().until(this::topics, list -> list.size() == 2);
        JsonNode untouched = topics.stream()
                .filter(t -> t.path("id").asString().equals(original.path("id").asString()))
                .findFirst()
                .orElseThrow();
        assertThat(untouched.path("text").asString()).isEqualTo("USER likes green tea.");
        assertThat(untouched.path("version").asInt()).isEqualTo(1);
        assertThat(topics).extracting(t -> t.path("text").asString()).contains("USER drinks oolong.");
    }

    @Test
    void severalActionsForOneSummaryAreAllApplied() {
        key = api.newTenant();
        closedSession(
                tag,
                "{\"extracted_memories\": [{\"summary\": \"USER has a dog named Rex.\", \"reference\": [0]}]}",
                "My dog Rex " + tag,
                "Cute.");
        eventually().until(this::topics, list -> list.size() == 1);
        String second = tag + "-2";
        onModelCall(
                call -> call.is(Step.TOPIC_UPDATE) && call.mentions("USER walks Rex and has a cat"),
                call -> Answer.json("""
                        {"actions": [{"action": "merge", "index": 0, "merged_summary": "USER has a dog named Rex and walks him daily."},
                                     {"action": "add", "index": null, "merged_summary": null}]}"""));

        closedSession(
                second,
                "{\"extracted_memories\": [{\"summary\": \"USER walks Rex and has a cat.\", \"reference\": [0]}]}",
                "I walk Rex and have a cat " + second,
                "Busy!");

        List<JsonNode> topics = eventually()
                .until(
                        this::topics,
                        list -> list.size() == 2
                                && list.stream().anyMatch(t -> t.path("version").asInt() == 2));
        assertThat(topics)
                .extracting(t -> t.path("text").asString())
                .containsExactlyInAnyOrder(
                        "USER has a dog named Rex and walks him daily.", "USER walks Rex and has a cat.");
    }
}
