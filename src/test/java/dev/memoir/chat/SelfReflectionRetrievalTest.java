package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

class SelfReflectionRetrievalTest extends IntegrationTest {

    private static final String ONLY_HISTORY_TOP1 =
            "{\"read\": [\"history\"], \"topK\": {\"history\": 1}, \"reflectionRounds\": 1}";

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

    @Test
    void keywordsFromReflectionExtendTheQueryForOneMoreSearch() {
        String session = userWithTwoMemories(ONLY_HISTORY_TOP1);
        String question = "How do I get to work? " + tag;
        onModelCall(call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"sufficient\": false, \"relevant\": [], "
                        + "\"keywords\": [\"purple elephant parade\", \"Sunday\"]}"));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(tag))).hasSize(1);
        assertThat(reply.body().path("memories").findValuesAsString("text")).containsExactlyInAnyOrder(
                "User: I ride a red bicycle to work every day",
                "User: The purple elephant parade in my town is on Sunday");
        ChatCall replyCall = fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst();
        assertThat(replyCall.systemPrompt()).contains("red bicycle").contains("purple elephant parade");
    }

    @Test
    void sufficientMemoriesAreNarrowedToTheOnesTheModelNamesRelevant() {
        String session = userWithTwoMemories(
                "{\"read\": [\"history\"], \"topK\": {\"history\": 2}, \"reflectionRounds\": 1}");
        String question = "When is the parade? " + tag;
        onModelCall(call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag), call -> {
            int parade = call.lastUserMessage().indexOf("purple elephant");
            int bicycle = call.lastUserMessage().indexOf("red bicycle");
            return Answer.json("{\"sufficient\": true, \"relevant\": [" + (parade < bicycle ? 1 : 2)
                    + "], \"keywords\": []}");
        });

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactly("User: The purple elephant parade in my town is on Sunday");
        ChatCall replyCall = fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst();
        assertThat(replyCall.systemPrompt()).doesNotContain("red bicycle");
    }

    @Test
    void zeroReflectionRoundsSkipsSelfReflection() {
        String session = userWithTwoMemories(
                "{\"read\": [\"history\"], \"topK\": {\"history\": 1}, \"reflectionRounds\": 0}");
        String question = "How do I get to work? " + tag;

        Api.Response reply = api.chat(key, session, question);

        assertThat(fake.calls(c -> c.is(Step.SELF_REFLECTION) && c.mentions(tag))).isEmpty();
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactly("User: I ride a red bicycle to work every day");
    }

    @Test
    void anUnreadableReflectionKeepsTheRetrievedMemories() {
        String session = userWithTwoMemories(ONLY_HISTORY_TOP1);
        String question = "How do I get to work? " + tag;
        onModelCall(call -> call.is(Step.SELF_REFLECTION) && call.mentions(tag),
                call -> Answer.content("I think the memories are fine, probably."));

        Api.Response reply = api.chat(key, session, question);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .containsExactly("User: I ride a red bicycle to work every day");
    }
}
