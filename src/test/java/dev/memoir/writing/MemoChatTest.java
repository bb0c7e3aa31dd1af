package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class MemoChatTest extends IntegrationTest {

    private static final String MEMOCHAT = "{\"strategy\": \"memochat\"}";

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private String key;

    /** A closed memochat session of four turns: two about cooking, two about a bike (lines 1-2 and 3-4). */
    private String closedSessionAnsweredWith(String memoJson) {
        key = api.newTenant();
        String session = api.newSession(key, "mia", MEMOCHAT);
        api.importTurns(
                key,
                session,
                "How long do I boil an egg? " + tag,
                "About nine minutes for hard-boiled.",
                "My bike chain keeps slipping",
                "Check the derailleur adjustment.");
        onModelCall(call -> call.is(Step.MEMO_WRITING) && call.mentions(tag), call -> Answer.json(memoJson));
        api.close(key, session);
        return session;
    }

    private List<JsonNode> memos() {
        return ofKind(api.get(key, "/memory?userId=mia&kind=memo"), "memo");
    }

    private List<String> turnIds(String session) {
        return api.get(key, "/sessions/" + session).body().path("turns").findValuesAsString("id");
    }

    @Test
    void closingASessionWritesOneMemoPerTopicWithItsTurnsAsProvenance() {
        String session = closedSessionAnsweredWith("""
                {"memos": [{"topic": "boiling eggs", "summary": "The user asks how long to boil an egg.",
                            "start": 1, "end": 2},
                           {"topic": "bike repair", "summary": "The user's bike chain slips.", "start": 3, "end": 4}]}""");

        List<JsonNode> memos = eventually().until(this::memos, list -> list.size() == 2);

        List<String> turns = turnIds(session);
        JsonNode eggs = memos.stream()
                .filter(m -> m.path("topic").asString().equals("boiling eggs"))
                .findFirst()
                .orElseThrow();
        assertThat(eggs.path("text").asString()).isEqualTo("The user asks how long to boil an egg.");
        assertThat(eggs.path("provenance").path("sessionId").asString()).isEqualTo(session);
        assertThat(eggs.path("provenance").path("turnIds").valueStream().map(JsonNode::asString))
                .containsExactly(turns.get(0), turns.get(1));
        JsonNode bike = memos.stream()
                .filter(m -> m.path("topic").asString().equals("bike repair"))
                .findFirst()
                .orElseThrow();
        assertThat(bike.path("provenance").path("turnIds").valueStream().map(JsonNode::asString))
                .containsExactly(turns.get(2), turns.get(3));
        ChatCall writing =
                fake.calls(c -> c.is(Step.MEMO_WRITING) && c.mentions(tag)).getFirst();
        assertThat(writing.lastUserMessage())
                .contains("4-line Task Conversation")
                .contains("(line 1) user: How long do I boil an egg?")
                .contains("(line 4) assistant: Check the");
    }

    @Test
    void overlappingAndOutOfRangeAnswersAreRepairedBeforeStoring() {
        String session = closedSessionAnsweredWith("""
                {"memos": [{"topic": "boiling eggs", "summary": "Eggs.", "start": 0, "end": 3},
                           {"topic": "bike repair", "summary": "Bike.", "start": 2, "end": 9},
                           {"topic": "ghost", "summary": "Nothing.", "start": 12, "end": 15}]}""");

        List<JsonNode> memos = eventually().until(this::memos, list -> list.size() == 2);

        List<String> turns = turnIds(session);
        assertThat(memos)
                .extracting(m -> m.path("topic").asString())
                .containsExactlyInAnyOrder("boiling eggs", "bike repair");
        JsonNode bike = memos.stream()
                .filter(m -> m.path("topic").asString().equals("bike repair"))
                .findFirst()
                .orElseThrow();
        assertThat(bike.path("provenance").path("turnIds").valueStream().map(JsonNode::asString))
                .containsExactly(turns.get(3));
    }

    @Test
    void aGarbageAnswerIsAskedForOnceMoreInEachRunAndAJobThatNeverGetsOneWaitsInTheDeadLetterList() {
        closedSessionAnsweredWith("Topics: eggs, bikes. Sorry, I cannot produce JSON.");

        // Two answers per run, four runs (the tests allow three retries), then the job is dead-lettered.
        eventually()
                .until(() -> fake.calls(c -> c.is(Step.MEMO_WRITING) && c.mentions(tag))
                                .size()
                        == 8);
        eventually()
                .until(() -> api.get(Api.BOOTSTRAP_KEY, "/admin/jobs/failed")
                        .body()
                        .path("items")
                        .valueStream()
                        .anyMatch(job -> job.path("task").asString().equals("memo-writing")
                                && job.path("lastError").asString().contains("no usable memo")));
        eventually()
                .during(Duration.ofSeconds(1))
                .until(() -> fake.calls(c -> c.is(Step.MEMO_WRITING) && c.mentions(tag))
                                        .size()
                                == 8
                        && memos().isEmpty());
    }

    @Test
    void aGarbageAnswerFollowedByAValidOneStoresTheValidMemos() {
        key = api.newTenant();
        String session = api.newSession(key, "mia", MEMOCHAT);
        api.importTurns(key, session, "I collect stamps " + tag, "Which countries?");
        AtomicInteger calls = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.MEMO_WRITING) && call.mentions(tag),
                call -> calls.incrementAndGet() == 1
                        ? Answer.json("{\"memos\": []}")
                        : Answer.json(
                                "{\"memos\": [{\"topic\": \"stamps\", \"summary\": \"Collects stamps.\", \"start\": 1, "
                                        + "\"end\": 2}]}"));

        api.close(key, session);

        assertThat(eventually()
                        .until(this::memos, list -> list.size() == 1)
                        .getFirst()
                        .path("topic")
                        .asString())
                .isEqualTo("stamps");
        assertThat(calls.get()).isEqualTo(2);
    }

    @Test
    void aLongOpenSessionIsWrittenIntoMemosWhileItRuns() {
        key = api.newTenant();
        String session = api.newSession(key, "mia", MEMOCHAT);
        onModelCall(
                call -> call.is(Step.MEMO_WRITING) && call.mentions(tag),
                call -> Answer.json("{\"memos\": [{\"topic\": \"span " + FakeOpenAiServer.lineCount(call)
                        + "\", \"summary\": \"x\", " + "\"start\": 1, \"end\": " + FakeOpenAiServer.lineCount(call)
                        + "}]}"));

        api.importTurns(key, session, "a " + tag, "b", "c " + tag, "d");
        assertThat(fake.calls(c -> c.is(Step.MEMO_WRITING) && c.mentions(tag))).isEmpty();
        api.importTurns(key, session, "e " + tag, "f", "g " + tag, "h");

        JsonNode memo =
                eventually().until(this::memos, list -> list.size() == 1).getFirst();
        assertThat(memo.path("topic").asString()).isEqualTo("span 6");
        assertThat(api.get(key, "/sessions/" + session).text("status")).isEqualTo("open");

        api.importTurns(key, session, "i " + tag, "j");
        api.close(key, session);
        assertThat(eventually().until(this::memos, list -> list.size() == 2))
                .extracting(m -> m.path("topic").asString())
                .containsExactlyInAnyOrder("span 6", "span 4");
    }

    @Test
    void aLargeImportIsCutIntoSpansOfTheConfiguredLength() {
        key = api.newTenant();
        String session = api.newSession(key, "mia", MEMOCHAT);
        onModelCall(
                call -> call.is(Step.MEMO_WRITING) && call.mentions(tag),
                call -> Answer.json("{\"memos\": [{\"topic\": \"span\", \"summary\": \"x\", \"start\": 1, \"end\": "
                        + FakeOpenAiServer.lineCount(call) + "}]}"));
        String[] turns = new String[14];
        for (int i = 0; i < turns.length; i++) {
            turns[i] = "turn " + i + " " + tag;
        }

        api.importTurns(key, session, turns);

        eventually().until(this::memos, list -> list.size() == 2);
        assertThat(fake.calls(c -> c.is(Step.MEMO_WRITING) && c.mentions(tag)))
                .allSatisfy(c -> assertThat(c.lastUserMessage()).contains("6-line Task Conversation"));
        api.close(key, session);
        eventually().until(this::memos, list -> list.size() == 3);
    }

    @Test
    void choosingNoneOfTheOthersGivesTheReplyNoMemo() {
        String past = closedSessionAnsweredWith("""
                {"memos": [{"topic": "boiling eggs", "summary": "Egg timing.", "start": 1, "end": 2},
                           {"topic": "bike repair", "summary": "Chain slips.", "start": 3, "end": 4}]}""");
        eventually().until(this::memos, list -> list.size() == 2);
        String session = api.newSession(key, "mia", MEMOCHAT);
        String question = "What is the capital of Peru? " + tag;
        onModelCall(
                call -> call.is(Step.MEMO_RETRIEVAL) && call.mentions(question),
                call -> Answer.json("{\"selected\": [" + FakeOpenAiServer.notoOption(call) + "]}"));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().path("memories")).isEmpty();
        ChatCall retrieval = fake.calls(c -> c.is(Step.MEMO_RETRIEVAL) && c.mentions(question))
                .getFirst();
        assertThat(retrieval.lastUserMessage())
                .contains("NOTO. None of the others.")
                .contains("boiling eggs. Egg timing.")
                .contains("bike repair. Chain slips.")
                .contains("{\"selected\": [N, M]}");
        assertThat(fake.calls(c -> c.is(Step.REPLY) && c.mentions(question))
                        .getFirst()
                        .systemPrompt())
                .doesNotContain("Egg timing")
                .doesNotContain(past);
    }

    @Test
    void theChosenMemosGoToTheReplyAsEvidencesWithTheirDialogue() {
        closedSessionAnsweredWith("""
                {"memos": [{"topic": "boiling eggs", "summary": "Egg timing.", "start": 1, "end": 2},
                           {"topic": "bike repair", "summary": "Chain slips.", "start": 3, "end": 4}]}""");
        eventually().until(this::memos, list -> list.size() == 2);
        String session = api.newSession(key, "mia", MEMOCHAT);
        String question = "Remind me about eggs and my bike " + tag;
        onModelCall(
                call -> call.is(Step.MEMO_RETRIEVAL) && call.mentions(question),
                call -> Answer.json("{\"selected\": [" + FakeOpenAiServer.optionOf(call, "boiling eggs") + ", "
                        + FakeOpenAiServer.optionOf(call, "bike repair") + ", 99]}"));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.body().path("memories").findValuesAsString("kind")).containsOnly("memo");
        assertThat(reply.body().path("memories").findValuesAsString("topic"))
                .containsExactlyInAnyOrder("boiling eggs", "bike repair");
        String prompt = fake.calls(c -> c.is(Step.REPLY) && c.mentions(question))
                .getFirst()
                .systemPrompt();
        assertThat(prompt)
                .contains("[Related evidences]")
                .contains("Topic: boiling eggs")
                .contains("Summary: Egg timing.")
                .contains("user: How long do I boil an egg? " + tag + " ### assistant: About nine minutes");
    }
}
