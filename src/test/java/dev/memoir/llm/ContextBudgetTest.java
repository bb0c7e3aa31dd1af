package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;
import dev.memoir.support.Prose;

import tools.jackson.databind.JsonNode;

/**
 * No request exceeds the model's context, whatever Memoir has to show: every step is driven with the largest
 * input it can meet (the longest message the context allows, long turns, the largest memory budget, many long
 * memories, answers as long as the answer limit) against the test fake, which refuses a request beyond its context
 * as llama.cpp does (IntegrationTest fails any test that had one refused). The largest request of each step that
 * is not cut into parts by memoir.writing.part-tokens must also come near the context, so that it was truly put to
 * the test.
 */
class ContextBudgetTest extends IntegrationTest {

    private static final String ALL = "{\"strategy\": \"all\", \"promptTokenBudget\": 100000, "
            + "\"topK\": {\"fact\": 20, \"history\": 20, \"conditional\": 20, \"summary\": 20, \"topic\": 20, "
            + "\"memo\": 20}}";

    /**
     * Long enough that an answer made of it, in JSON, reaches the answer limit's neighbourhood. Every long text
     * starts with the test's tag, which a shortened prompt keeps (parts are cut from their end).
     */
    private static final String LONG_ANSWER_TEXT = Prose.words(3, 560);

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private String key;
    private int callsBefore;

    @BeforeEach
    void longAnswers() {
        key = api.newTenant();
        callsBefore = fake.calls().size();
        String text = Api.quote(tag + " " + LONG_ANSWER_TEXT);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": " + text + ", \"remember\": true, \"citations\": [1, 2, 3]}"));
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.json(
                        "{\"sufficient\": false, \"relevant\": [1], \"keywords\": [\"Porto\", \"cello\", \"Kyoto\"]}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(tag),
                call -> Answer.json("{\"context\": \"NaN\", \"summary\": \"Travel.\", \"note\": " + text + "}"));
        onModelCall(
                call -> (call.is(Step.SESSION_SUMMARY) || call.is(Step.RECURSIVE_SUMMARY)) && call.mentions(tag),
                call -> call.is(Step.SESSION_SUMMARY)
                        ? Answer.sessionSummary(tag + " " + LONG_ANSWER_TEXT)
                        : Answer.content(tag + " " + LONG_ANSWER_TEXT));
        onModelCall(
                call -> call.is(Step.MEMO_WRITING) && call.mentions(tag),
                call -> Answer.json("{\"memos\": [{\"topic\": \"travel\", \"summary\": " + text
                        + ", \"start\": 1, \"end\": " + FakeOpenAiServer.lineCount(call) + "}]}"));
        String third = Api.quote(tag + " " + Prose.words(5, 180));
        onModelCall(
                call -> call.is(Step.TOPIC_EXTRACTION) && call.mentions(tag),
                call -> Answer.json(
                        "{\"extracted_memories\": [{\"summary\": " + third + ", \"reference\": [0]}, {\"summary\": "
                                + third + ", \"reference\": [1]}, {\"summary\": " + third + ", \"reference\": [2]}]}"));
        onModelCall(
                call -> call.is(Step.TOPIC_UPDATE) && call.mentions(tag),
                call -> Answer.json(
                        "{\"actions\": [{\"action\": \"merge\", \"index\": 0, \"merged_summary\": " + text + "}]}"));
    }

    @Test
    void theLongestMessageIsAnsweredWithMemoryWithinTheContextAndALongerOneIsRefusedBeforeItIsStored() {
        for (int i = 0; i < 12; i++) {
            Api.Response added =
                    api.addMemory(key, "big", (tag + " fact " + i + ": " + Prose.words(i, 3800)).substring(0, 19_000));
            assertThat(added.status()).as(added.raw()).isEqualTo(201);
        }
        String session = api.newSession(key, "big", ALL);
        for (int i = 0; i < 5; i++) {
            api.importTurns(key, session, tag + " " + Prose.words(i, 900), tag + " " + Prose.words(i + 1, 900));
        }

        Api.Response tooLong = api.chat(key, session, tag + " " + Prose.words(9, 6000));
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.text("code")).isEqualTo("message-too-long");
        assertThat(tooLong.text("detail")).contains("memoir.model.context-tokens 8192");

        Api.Response reply = api.chat(key, session, tag + " " + Prose.words(9, 3500));
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).hasSize(12);

        awaitJobsDone(session);
        assertEveryStepCameNearTheContext(EnumSet.of(Step.REPLY, Step.SELF_REFLECTION, Step.CONDITIONAL_MEMORY));
    }

    @Test
    void aLongSessionIsClosedPartByPartWithinTheContextWithLongMemoriesToMergeInto() {
        for (int round = 0; round < 2; round++) {
            String session = api.newSession(key, "closer", ALL);
            for (int i = 0; i < 7; i++) {
                api.importTurns(
                        key,
                        session,
                        tag + " " + Prose.words(round + i, 700),
                        tag + " " + Prose.words(round + i + 3, 700));
            }
            assertThat(api.close(key, session).status()).isEqualTo(202);
            awaitJobsDone(session);
        }
        // The second close met the first one's long topic memories and merged into them.
        assertThat(fake.calls(call -> call.is(Step.TOPIC_UPDATE) && call.mentions(tag)))
                .isNotEmpty();

        String next = api.newSession(key, "closer", ALL);
        assertThat(api.chat(key, next, "What did we talk about last time? " + tag)
                        .status())
                .isEqualTo(200);

        // The whole-session steps read parts of memoir.writing.part-tokens here (1000, as every test runs): within
        // the context by the fake's count like every request, but not near it. RealModelServerTest reads parts of
        // the size the context leaves (unset part-tokens), which reach two thirds of it by llama-server's count.
        assertEveryStepCameNearTheContext(
                EnumSet.of(Step.MEMO_WRITING, Step.MEMO_RETRIEVAL, Step.REPLY, Step.SELF_REFLECTION));
    }

    @Test
    void reasoningOverLongMemoriesAndLongFeedbackStaysWithinTheContext() {
        for (int i = 0; i < 10; i++) {
            api.addMemory(key, "thinker", (tag + " fact " + i + ": " + Prose.words(i, 3800)).substring(0, 19_000));
        }
        AtomicInteger steps = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.REASONING_STEP) && call.mentions(tag),
                call -> Answer.json("{\"thought\": " + Api.quote(Prose.words(steps.incrementAndGet(), 150))
                        + ", \"action\": \"search\", \"argument\": \"Porto cello Kyoto lentil\"}"));
        onModelCall(
                call -> call.is(Step.REASONING_INFERENCE) && call.mentions(tag),
                call -> Answer.content(LONG_ANSWER_TEXT));
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": " + Api.quote(LONG_ANSWER_TEXT) + "}"));
        String session = api.newSession(key, "thinker", "{\"strategy\": \"conditional\", \"reasoning\": true}");

        Api.Response reasoned = api.chat(key, session, tag + " " + Prose.words(2, 3000));
        assertThat(reasoned.status()).as(reasoned.raw()).isEqualTo(200);
        String turnId = reasoned.text("turnId");
        String longHint = Prose.words(4, 800).substring(0, 3900);
        assertThat(api.send(
                                "POST",
                                "/reflection/feedback",
                                key,
                                Json.object("turnId", turnId, "verdict", "incorrect", "hint", longHint))
                        .status())
                .isEqualTo(200);
        Api.Response resolved =
                api.send("POST", "/reflection/feedback", key, Json.object("turnId", turnId, "answer", longHint));
        assertThat(resolved.status()).as(resolved.raw()).isEqualTo(200);
        assertThat(resolved.text("outcome")).isEqualTo("resolved");

        assertEveryStepCameNearTheContext(
                EnumSet.of(Step.REASONING_STEP, Step.REASONING_INFERENCE, Step.MEMORY_REFLECTION));
    }

    /** The largest request of each step (prompt as the fake counts it, and the answer limit) came near the context. */
    private void assertEveryStepCameNearTheContext(Set<Step> steps) {
        List<ChatCall> calls = fake.calls().subList(callsBefore, fake.calls().size());
        Map<Step, Integer> largest = new TreeMap<>();
        for (ChatCall call : calls) {
            if (call.mentions(tag)) {
                largest.merge(
                        call.step(), FakeOpenAiServer.promptTokens(call.messages()) + call.maxTokens(), Math::max);
            }
        }
        for (Step step : steps) {
            assertThat(largest.get(step))
                    .as(step + " in " + largest)
                    .isNotNull()
                    .isGreaterThan(FakeOpenAiServer.CONTEXT_TOKENS * 2 / 3)
                    .isLessThanOrEqualTo(FakeOpenAiServer.CONTEXT_TOKENS);
        }
    }

    private void awaitJobsDone(String session) {
        eventually().atMost(Duration.ofSeconds(60)).until(() -> {
            List<String> states = new ArrayList<>();
            for (JsonNode job : api.get(key, "/sessions/" + session).body().path("jobs")) {
                states.add(job.path("state").asString());
                assertThat(job.path("state").asString()).as(job.toString()).isNotEqualTo("failed");
            }
            return !states.isEmpty() && states.stream().allMatch("done"::equals);
        });
    }
}
