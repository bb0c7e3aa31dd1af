package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

class SelfReflectionRetrievalTest extends IntegrationTest {

    /** The papers' reading: the top K of each kind, narrowed by self-reflection. */
    private static final String PER_KIND_HISTORY_TOP1 = "{\"read\": [\"history\"], \"topK\": {\"history\": 1}, "
            + "\"reflectionRounds\": 1, \"contextSelection\": \"per-kind\"}";

    private String key;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private String userWithTwoMemories(String settings) {
        key = api.newTenant();
        String past = api.newSession(key, "erin", null);
        api.send("POST", "/sessions/" + past + "/turns", key, """
                {"turns": [{"role": "user", "content": "I ride a red bicycle to work every day"},
                           {"role": "user", "content": "The purple elephant parade in my town is on Sunday"}]}""");
        api.close(key, past);
        return api.newSession(key, "erin", settings);
    }

    /** A sufficient verdict naming the parade memory alone relevant, wherever the candidates list it. */
    private static Answer relevantIsTheParade(ChatCall call) {
        int parade = call.lastUserMessage().indexOf("purple elephant");
        int bicycle = call.lastUserMessage().indexOf("red bicycle");
        return Answer.json(
                "{\"sufficient\": true, \"relevant\": [" + (parade < bicycle ? 1 : 2) + "], \"keywords\": []}");
    }

    @Test
    void withThePapersReadingKeywordsFromReflectionExtendTheQueryForOneMoreSearch() {
        String session = userWithTwoMemories(PER_KIND_HISTORY_TOP1);
        String question = "How do I get to work? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"sufficient\": false, \"relevant\": [], "
                        + "\"keywords\": [\"purple elephant parade\", \"Sunday\"]}"));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(tag)))
                .hasSize(1);
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactlyInAnyOrder(
                        "User: I ride a red bicycle to work every day",
                        "User: The purple elephant parade in my town is on Sunday");
        ChatCall replyCall =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst();
        assertThat(replyCall.systemPrompt()).contains("red bicycle").contains("purple elephant parade");
    }

    @Test
    void withThePapersReadingSufficientMemoriesAreNarrowedToTheOnesTheModelNamesRelevant() {
        String session = userWithTwoMemories("{\"read\": [\"history\"], \"topK\": {\"history\": 2}, "
                + "\"reflectionRounds\": 1, \"contextSelection\": \"per-kind\"}");
        String question = "When is the parade? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                SelfReflectionRetrievalTest::relevantIsTheParade);

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactly("User: The purple elephant parade in my town is on Sunday");
        ChatCall replyCall =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst();
        assertThat(replyCall.systemPrompt()).doesNotContain("red bicycle");
    }

    @Test
    void withThePapersReadingZeroReflectionRoundsSkipsSelfReflection() {
        String session = userWithTwoMemories("{\"read\": [\"history\"], \"topK\": {\"history\": 1}, "
                + "\"reflectionRounds\": 0, \"contextSelection\": \"per-kind\"}");
        String question = "How do I get to work? " + tag;

        Api.Response reply = api.chat(key, session, question);

        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(tag)))
                .isEmpty();
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactly("User: I ride a red bicycle to work every day");
    }

    @Test
    void withThePapersReadingAnUnreadableReflectionKeepsTheRetrievedMemories() {
        String session = userWithTwoMemories(PER_KIND_HISTORY_TOP1);
        String question = "How do I get to work? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.content("I think the memories are fine, probably."));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactly("User: I ride a red bicycle to work every day");
    }

    @Test
    void aModelNamingOneMemoryRelevantNoLongerReducesTheReplysMemoryToIt() {
        String session = userWithTwoMemories(null);
        String question = "When is the parade? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                SelfReflectionRetrievalTest::relevantIsTheParade);

        Api.Response reply = api.chat(key, session, question);

        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(tag)))
                .hasSize(1);
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .contains(
                        "User: I ride a red bicycle to work every day",
                        "User: The purple elephant parade in my town is on Sunday");
        ChatCall replyCall =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst();
        assertThat(replyCall.systemPrompt()).contains("red bicycle").contains("purple elephant parade");
    }

    @Test
    void aSufficientVerdictNamingNoMemoryKeepsEveryMemory() {
        String session = userWithTwoMemories(null);
        String question = "When is the parade? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"sufficient\": true, \"relevant\": [], \"keywords\": []}"));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .contains(
                        "User: I ride a red bicycle to work every day",
                        "User: The purple elephant parade in my town is on Sunday");
    }

    @Test
    void keywordsFromReflectionRunOneMoreSearchAndDropNothingTheFirstFound() {
        String session = userWithTwoMemories(null);
        String question = "How do I get to work? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"sufficient\": false, \"relevant\": [], "
                        + "\"keywords\": [\"purple elephant parade\", \"Sunday\"]}"));

        Api.Response reply = api.chat(key, session, question);

        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(tag)))
                .hasSize(1);
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .contains(
                        "User: I ride a red bicycle to work every day",
                        "User: The purple elephant parade in my town is on Sunday");
    }

    @Test
    void theMemoryTheModelNamesRelevantGoesFirstWhenTheBudgetHoldsOnlyOne() {
        key = api.newTenant();
        String past = api.newSession(key, "erin", null);
        // Each about 85 tokens: the budget of 100 holds one of them and too little is left to shorten the other.
        String bicycle = "I ride a red bicycle to work every day, along the river path and past the old mill, "
                + "rain or shine, and it takes me about twenty minutes from my door to the office. On Fridays I "
                + "take the long way round by the lake, stop for a coffee at the kiosk near the boat club, and "
                + "watch the rowers for a while before I lock the bike in the yard behind the building.";
        String parade = "The purple elephant parade in my town is on Sunday afternoon this year, starting at the "
                + "market square and going all the way down to the harbour where the boats are. The children "
                + "make paper elephants at school for weeks, the bakery sells purple buns, and the brass band "
                + "from the next village plays the same three songs over and over until the sun goes down.";
        api.send(
                "POST",
                "/sessions/" + past + "/turns",
                key,
                Json.object(
                        "turns",
                        List.of(
                                Map.of("role", "user", "content", bicycle),
                                Map.of("role", "user", "content", parade))));
        api.close(key, past);
        String session = api.newSession(key, "erin", "{\"read\": [\"history\"], \"promptTokenBudget\": 100}");
        String question = "How do I get to work? " + tag;
        onModelCall(
                call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                SelfReflectionRetrievalTest::relevantIsTheParade);

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.body().path("memories").findValuesAsString("text")).containsExactly("User: " + parade);
    }
}
