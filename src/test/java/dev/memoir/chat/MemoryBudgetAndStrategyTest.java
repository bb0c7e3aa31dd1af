package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.chat.turn.ReplyDecision;
import dev.memoir.llm.PromptTemplates;
import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.MemoryStrategy;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class MemoryBudgetAndStrategyTest extends IntegrationTest {

    @Autowired
    TokenCounter tokens;

    @Autowired
    PromptTemplates templates;

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void thePromptsMemoryStaysWithinTheTokenBudgetWhateverTheHistoryLength() {
        String key = api.newTenant();
        String past = api.newSession(key, "olga", null);
        String[] turns = new String[40];
        for (int i = 0; i < turns.length; i++) {
            turns[i] = "Story part " + i + " about my garden: the tomatoes, the beans, the roses and the old pear "
                    + "tree by the fence all needed water during the long dry summer of that year, said the user.";
        }
        api.importTurns(key, past, turns);
        String session = api.newSession(
                key,
                "olga",
                "{\"read\": [\"history\"], \"topK\": {\"history\": 20}, \"reflectionRounds\": 0, "
                        + "\"promptTokenBudget\": 200}");
        String question = "Tell me about my garden " + tag;

        Api.Response reply = api.chat(key, session, question);

        String system =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst().systemPrompt();
        int instructions =
                tokens.count(templates.render(ReplyDecision.STEP, Map.of("memories", "", "today", "2026-01-01")));
        assertThat(tokens.count(system) - instructions).isLessThanOrEqualTo(200);
        int given = reply.body().path("memories").size();
        assertThat(given).isBetween(1, 19);
        // Memories are grouped under their session's line, which shows the day its turns were said.
        assertThat(system)
                .contains("[Memory]:\nSession of " + LocalDate.now(ZoneOffset.UTC) + ":\n1. User: Story part");
    }

    @Test
    void aRetrievedUtterancesNeighbourThatTheRecentDialogueSendsIsNotShownTwice() {
        String key = api.newTenant();
        String session = api.newSession(key, "olga", "{\"reflectionRounds\": 0}");
        String[] turns = new String[12];
        turns[0] = "My cat Pickles adores sardines " + tag;
        turns[1] = "Really? Mine only eats tuna " + tag;
        for (int i = 2; i < turns.length; i++) {
            turns[i] = "Small talk number " + i + " about the weather.";
        }
        api.importTurns(key, session, turns);
        String question = "What does Pickles adore? " + tag;

        api.chat(key, session, question);

        ChatCall call =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(question)).getFirst();
        // The last 11 stored turns and the question go verbatim: the first turn is outside them, its answer inside.
        assertThat(call.messages())
                .extracting(m -> m.content())
                .contains("Really? Mine only eats tuna " + tag)
                .doesNotContain("My cat Pickles adores sardines " + tag);
        assertThat(call.systemPrompt())
                .contains("My cat Pickles adores sardines " + tag)
                .doesNotContain("Really? Mine only eats tuna");
    }

    @Test
    void theWholeReplyPromptStaysBoundedWhenTheSessionsTurnsAreHuge() {
        String key = api.newTenant();
        String session = api.newSession(key, "olga", "{\"reflectionRounds\": 0}");
        String longTurn = "The pear tree by the fence needed water again during that dry summer. ".repeat(80);
        for (int batch = 0; batch < 3; batch++) {
            api.importTurns(
                    key,
                    session,
                    longTurn + batch + "a",
                    longTurn + batch + "b",
                    longTurn + batch + "c",
                    longTurn + batch + "d");
        }
        String question = "What about the pear tree? " + tag;

        api.chat(key, session, question);

        var call = fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag)).getFirst();
        int dialogueTokens = call.messages().stream()
                .filter(m -> !m.role().equals("system"))
                .mapToInt(m -> tokens.count(m.content()))
                .sum();
        assertThat(tokens.count(longTurn) * 12).as("what the session holds").isGreaterThan(4000 * 3);
        assertThat(dialogueTokens).as("the dialogue sent with the reply").isLessThanOrEqualTo(4000);
        assertThat(call.messages().getLast().content()).isEqualTo(question);
    }

    @Test
    void modelCallsAndTokensAreCountedPerPipelineStep() {
        String key = api.newTenant();
        String session = api.newSession(key, "pia", null);
        api.chat(key, session, "Count me " + tag);

        JsonNode calls = api.get(Api.BOOTSTRAP_KEY, "/actuator/metrics/memoir.model.calls?tag=step:reply")
                .body();
        assertThat(calls.path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(1);
        JsonNode prompt = api.get(
                        Api.BOOTSTRAP_KEY, "/actuator/metrics/memoir.model.tokens?tag=step:reply&tag=type:prompt")
                .body();
        assertThat(prompt.path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(42);
        JsonNode completion = api.get(
                        Api.BOOTSTRAP_KEY, "/actuator/metrics/memoir.model.tokens?tag=step:reply&tag=type:completion")
                .body();
        assertThat(completion.path("measurements").get(0).path("value").asDouble())
                .isGreaterThanOrEqualTo(7);
    }

    @Test
    void aSessionStoredBeforeAKindExistedReadsThatKindsDefaultTopKAndRetrievesIt() {
        String key = api.newTenant();
        api.addMemory(key, "zoe", "Zoe rows every morning " + tag);
        String session = api.newSession(key, "zoe", null);
        // As the session was stored before facts existed: its settings name no top-K for them.
        jdbc.sql("update sessions set settings = jsonb_set(settings, '{topK}', (settings->'topK') - 'fact') "
                        + "where id = ?")
                .param(UUID.fromString(session))
                .update();
        assertThat(jdbc.sql("select jsonb_exists(settings->'topK', 'fact') from sessions where id = ?")
                        .param(UUID.fromString(session))
                        .query(Boolean.class)
                        .single())
                .isFalse();

        assertThat(api.get(key, "/sessions/" + session)
                        .body()
                        .path("memory")
                        .path("topK")
                        .path("fact")
                        .asInt())
                .isEqualTo(3);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions("What sport? " + tag),
                call -> Answer.json("{\"reply\": \"Rowing.\", \"remember\": false}"));
        assertThat(api.chat(key, session, "What sport? " + tag)
                        .body()
                        .path("memories")
                        .toString())
                .contains("Zoe rows every morning");
    }

    @Test
    void anUnknownStrategyIsRejectedNamingTheKnownOnes() {
        String key = api.newTenant();
        Api.Response response =
                api.send("POST", "/sessions", key, "{\"userId\": \"u\", \"memory\": {\"strategy\": \"telepathy\"}}");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().path("errors").findValuesAsString("field")).containsExactly("memory.strategy");
        assertThat(response.text("detail")).contains("memochat").contains("conditional+summary");
    }

    /** A user with memories of every kind, written through an "all" session. */
    private String userWithEveryKind(String userId) {
        String key = api.newTenant();
        String session = api.newSession(key, userId, "{\"strategy\": \"all\"}");
        String message = "I keep bees on my roof " + tag + ". Always answer me in short sentences.";
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(message),
                call -> Answer.json("{\"reply\": \"Lovely.\", \"remember\": true}"));
        api.chat(key, session, message);
        api.close(key, session);
        eventually()
                .until(
                        () -> kindsOf(api.get(key, "/memory?userId=" + userId + "&limit=100")),
                        kinds -> kinds.equals(MemoryStrategy.ALL.kinds()));
        return key;
    }

    private static Set<MemoryKind> kindsOf(Api.Response response) {
        return items(response).stream()
                .map(m -> MemoryKind.fromWireName(m.path("kind").asString()))
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(MemoryKind.class)));
    }

    @ParameterizedTest
    @EnumSource(MemoryStrategy.class)
    void eachPresetReadsExactlyItsForms(MemoryStrategy strategy) {
        String key = userWithEveryKind("quinn");
        String session = api.newSession(key, "quinn", Json.object("strategy", strategy.wireName()));

        Api.Response reply = api.chat(key, session, "What about my bees? " + tag + strategy);

        Set<MemoryKind> read = reply.body()
                .path("memories")
                .valueStream()
                .map(m -> MemoryKind.fromWireName(m.path("kind").asString()))
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(MemoryKind.class)));
        assertThat(read).isEqualTo(strategy.kinds());
        assertThat(api.get(key, "/sessions/" + session)
                        .body()
                        .path("memory")
                        .path("read")
                        .valueStream()
                        .map(JsonNode::asString)
                        .toList())
                .containsExactlyInAnyOrderElementsOf(
                        strategy.kinds().stream().map(MemoryKind::wireName).toList());
    }

    @ParameterizedTest
    @EnumSource(MemoryStrategy.class)
    void eachPresetWritesExactlyItsForms(MemoryStrategy strategy) {
        String key = api.newTenant();
        String session = api.newSession(key, "rita", Json.object("strategy", strategy.wireName()));
        String message = "I restore old radios " + tag + strategy + ". Always answer me in short sentences.";
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(message),
                call -> Answer.json("{\"reply\": \"Neat.\", \"remember\": true}"));
        api.chat(key, session, message);
        api.close(key, session);

        eventually()
                .until(
                        () -> kindsOf(api.get(key, "/memory?userId=rita&limit=100")),
                        kinds -> kinds.equals(strategy.kinds()));
        List<String> turnIds =
                api.get(key, "/sessions/" + session).body().path("turns").findValuesAsString("id");
        eventually()
                .until(() -> jdbc.sql("select count(*) from scheduled_tasks where task_instance like :session "
                                        + "or task_instance in (:turns)")
                                .param("session", session + "%")
                                .param("turns", turnIds)
                                .query(Integer.class)
                                .single()
                        == 0);
        assertThat(kindsOf(api.get(key, "/memory?userId=rita&limit=100"))).isEqualTo(strategy.kinds());
    }
}
