package dev.memoir.feedback;

import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class FeedbackLearningTest extends IntegrationTest {

    private static final String CONDITIONAL = "{\"strategy\": \"conditional\", \"reflectionRounds\": 0}";

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private String key;

    /** Feedback on the reply turn: its further fields as names and values (name, value, ...). */
    private Api.Response feedback(String turnId, Object... fields) {
        Map<String, Object> body = Json.fields("turnId", turnId);
        body.putAll(Json.fields(fields));
        return api.send("POST", "/reflection/feedback", key, Json.write(body));
    }

    /** A user who once said their sister's band formed in Lisbon, kept as a conditional memory. */
    private JsonNode userWithAStaleFact() {
        key = api.newTenant();
        String first = api.newSession(key, "una", CONDITIONAL);
        String fact = "My sister's band was formed in Lisbon " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(fact),
                call -> Answer.json("{\"reply\": \"Cool!\", \"remember\": true, \"citations\": []}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY) && call.mentions(fact),
                call -> Answer.json(
                        "{\"context\": \"NaN\", \"summary\": \"Family.\", \"note\": \"The user's sister's band was formed in Lisbon.\"}"));
        api.chat(key, first, fact);
        api.close(key, first);
        return eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=una&kind=conditional"), "conditional"),
                        list -> list.size() == 1)
                .getFirst();
    }

    /** Asks where the band formed in a new session; the scripted model answers from the stale memory. */
    private Api.Response askWhereTheBandFormed(String marker, String scriptedReply) {
        String session = api.newSession(key, "una", CONDITIONAL);
        String question = "Where was my sister's band formed? " + marker;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"" + scriptedReply + "\", \"remember\": false, \"citations\": [1]}"));
        return api.chat(key, session, question);
    }

    @Test
    void aCorrectionOfWhatWasSaidIsAddedBesideItsHistoryMemoryAndNeverRewritesIt() {
        key = api.newTenant();
        String history = "{\"strategy\": \"multi-view\", \"reflectionRounds\": 0}";
        String first = api.newSession(key, "ana", history);
        String said = "Hi! My name is Alice and I live in Porto " + tag;
        api.importTurns(key, first, said, "Nice to meet you, Alice.");
        JsonNode spoken = eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=ana&kind=history"), "history"),
                        list -> list.size() == 2)
                .stream()
                .filter(m -> m.path("text").asString().contains(said))
                .findFirst()
                .orElseThrow();
        String session = api.newSession(key, "ana", history);
        String question = "Where do I live? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"In Porto.\", \"remember\": false, \"citations\": [1]}"));
        String turnId = api.chat(key, session, question).text("turnId");
        // A weak model's "correction" is close enough to the history memory to have replaced it in place.
        String reflected = "User: Hi! My name is Alice and I live in Braga now " + tag;
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": " + Api.quote(reflected) + "}"));

        Api.Response resolved = feedback(turnId, "answer", "I moved to Braga last month.");

        assertThat(resolved.status()).as(resolved.raw()).isEqualTo(200);
        JsonNode learned = resolved.body().path("learned");
        assertThat(learned.path("action").asString()).isEqualTo("added");
        assertThat(learned.path("corrects").asString())
                .isEqualTo(spoken.path("id").asString());
        JsonNode unchanged =
                api.get(key, "/memory/" + spoken.path("id").asString()).body();
        assertThat(unchanged.path("text").asString())
                .isEqualTo(spoken.path("text").asString());
        assertThat(unchanged.path("version").asInt())
                .isEqualTo(spoken.path("version").asInt());
        assertThat(api.get(key, "/memory/" + spoken.path("id").asString() + "/revisions")
                        .body()
                        .path("items")
                        .findValuesAsString("version"))
                .containsExactly("1");
        JsonNode correction =
                api.get(key, "/memory/" + learned.path("memoryId").asString()).body();
        assertThat(correction.path("kind").asString()).isEqualTo("reflected");
        assertThat(correction.path("text").asString()).isEqualTo(reflected);
        assertThat(correction.path("provenance").path("turnIds"))
                .isEqualTo(spoken.path("provenance").path("turnIds"));
        assertThat(api.get(key, "/sessions/" + first)
                        .body()
                        .path("turns")
                        .get(0)
                        .path("content")
                        .asString())
                .isEqualTo(said);
    }

    @Test
    void aCorrectionAddedAsAMemoryOfItsOwnSupersedesTheFactItUpdates() {
        key = api.newTenant();
        String history = "{\"strategy\": \"multi-view\", \"reflectionRounds\": 0}";
        String first = api.newSession(key, "ola", history);
        String said = "Hi! My name is Ola and I live in Porto " + tag;
        api.importTurns(key, first, said, "Nice to meet you, Ola.");
        String fact = api.addFact(
                key,
                "ola",
                "Ola lives in Porto " + tag + ".",
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        String session = api.newSession(key, "ola", history);
        String question = "Where do I live? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.lastUserMessage().equals(question),
                call -> Answer.json("{\"reply\": \"In Porto.\", \"remember\": false, \"citations\": [1]}"));
        String turnId = api.chat(key, session, question).text("turnId");
        String reflected = "User: Hi! My name is Ola and I live in Braga now " + tag;
        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": " + Api.quote(reflected) + "}"));
        onModelCall(
                call -> call.is(Step.SUPERSESSION) && call.mentions("live in Braga now " + tag),
                call -> Answer.json(FakeOpenAiServer.relations(call, "Ola lives in Porto", "updates")));

        JsonNode learned = feedback(turnId, "answer", "I moved to Braga last month.")
                .body()
                .path("learned");

        assertThat(learned.path("action").asString()).isEqualTo("added");
        assertThat(api.get(key, "/memory/" + fact).text("supersededBy"))
                .isEqualTo(learned.path("memoryId").asString());
        assertThat(fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("live in Braga now " + tag)))
                .hasSize(1);
    }

    @Test
    void anIncorrectVerdictWithAHintCorrectsTheMemoryInPlaceAndTheNextSessionAnswersFromIt() {
        JsonNode stale = userWithAStaleFact();
        Api.Response wrong = askWhereTheBandFormed(tag, "It was formed in Lisbon.");
        String turnId = wrong.text("turnId");
        onModelCall(
                call -> call.is(Step.REASONING_STEP)
                        && call.mentions(tag)
                        && !call.mentions("Action 1: Search[sister band formed]"),
                call -> Answer.json("{\"thought\": \"I should look up the band, keeping the hint in mind.\", "
                        + "\"action\": \"search\", \"argument\": \"sister band formed\"}"));
        onModelCall(
                call -> call.is(Step.REASONING_STEP)
                        && call.mentions(tag)
                        && call.mentions("Action 1: Search[sister band formed]"),
                call -> Answer.json("{\"thought\": \"The memory says Lisbon but the user corrected it.\", "
                        + "\"action\": \"finish\", \"argument\": \"It was formed in Porto.\"}"));

        Api.Response retried =
                feedback(turnId, "verdict", "incorrect", "hint", "I misspoke before: it was Porto, not Lisbon.");

        assertThat(retried.status()).as(retried.raw()).isEqualTo(200);
        assertThat(retried.text("outcome")).isEqualTo("retried");
        assertThat(retried.text("answer")).isEqualTo("It was formed in Porto.");
        assertThat(retried.body().path("needsFeedback").asBoolean()).isFalse();
        JsonNode trace = retried.body().path("trace");
        assertThat(trace).hasSize(2);
        assertThat(trace.get(0).path("feedback").path("hint").asString()).contains("Porto");
        assertThat(trace.get(1).path("steps").get(0).path("action").asString()).isEqualTo("search");
        assertThat(trace.get(1).path("steps").get(0).path("observation").asString())
                .contains("formed in Lisbon");
        ChatCall firstStep =
                fake.calls(c -> c.is(Step.REASONING_STEP) && c.mentions(tag)).getFirst();
        assertThat(firstStep.lastUserMessage()).contains("The user's hint: I misspoke before: it was Porto");

        onModelCall(
                call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag),
                call -> Answer.json("{\"reflected_memory\": \"The user's sister's band was formed in Porto.\"}"));
        Api.Response resolved = feedback(turnId, "verdict", "correct");

        assertThat(resolved.text("outcome")).isEqualTo("resolved");
        assertThat(resolved.text("status")).isEqualTo("resolved");
        JsonNode learned = resolved.body().path("learned");
        assertThat(learned.path("action").asString()).isEqualTo("edited");
        assertThat(learned.path("memoryId").asString())
                .isEqualTo(stale.path("id").asString());
        assertThat(learned.path("replacedText").asString()).contains("Lisbon");
        JsonNode revisions = api.get(key, "/memory/" + stale.path("id").asString() + "/revisions")
                .body()
                .path("items");
        assertThat(revisions.findValuesAsString("version")).containsExactly("2", "1");
        assertThat(revisions.get(0).path("reason").asString()).isEqualTo("reflection");
        assertThat(revisions.get(0).path("text").asString()).isEqualTo("The user's sister's band was formed in Porto.");
        assertThat(fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("sister's band was formed in Porto")))
                .as("an edit in place needs no supersession judgement")
                .isEmpty();

        JsonNode episode = api.get(key, "/reflection/episodes/" + resolved.text("episodeId"))
                .body();
        assertThat(episode.path("status").asString()).isEqualTo("resolved");
        assertThat(episode.path("trials")).hasSize(2);
        assertThat(episode.path("learned").asString()).isEqualTo("The user's sister's band was formed in Porto.");

        String again = tag + "-again";
        askWhereTheBandFormed(again, "Porto.");
        String prompt = fake.calls(c -> c.is(Step.REPLY) && c.mentions(again))
                .getFirst()
                .systemPrompt();
        assertThat(prompt).contains("formed in Porto").doesNotContain("Lisbon");
        assertProblem(feedback(turnId, "verdict", "incorrect"), 409, "episode-ended");
    }

    @Test
    void aCorrectionIsNotWrittenOverAMemoryEditedWhileTheModelWasReflecting() {
        String memoryId = userWithAStaleFact().path("id").asString();
        Api.Response wrong = askWhereTheBandFormed(tag, "It was formed in Lisbon.");
        onModelCall(call -> call.is(Step.MEMORY_REFLECTION) && call.mentions(tag), call -> {
            // The user fixes the memory by hand while the model is still writing its correction.
            api.send(
                    "PATCH",
                    "/memory/" + memoryId,
                    key,
                    "{\"text\": \"The user's sister's band was formed in Braga.\"}");
            return Answer.json("{\"reflected_memory\": \"The user's sister's band was formed in Porto.\"}");
        });

        Api.Response learned = feedback(wrong.text("turnId"), "answer", "It was formed in Porto.");

        assertProblem(learned, 409, "memory-changed");
        assertThat(api.get(key, "/memory/" + memoryId).body().path("text").asString())
                .contains("Braga");
    }

    @Test
    void aRepeatedInferenceMakesTheAssistantAskForHelpInsteadOfLooping() {
        userWithAStaleFact();
        Api.Response wrong = askWhereTheBandFormed(tag, "It was formed in Lisbon.");
        onModelCall(
                call -> call.is(Step.REASONING_STEP) && call.mentions(tag),
                call -> Answer.json(
                        "{\"thought\": \"My memory says Lisbon.\", \"action\": \"finish\", \"argument\": \"It was formed in Lisbon.\"}"));

        Api.Response stuck = feedback(wrong.text("turnId"), "verdict", "incorrect");

        assertThat(stuck.text("outcome")).isEqualTo("needs_feedback");
        assertThat(stuck.body().path("needsFeedback").asBoolean()).isTrue();
        assertThat(stuck.text("status")).isEqualTo("needs_feedback");
        assertThat(stuck.body().path("trace")).hasSize(2);
        assertThat(stuck.body().path("trace").get(1).path("inference").asString())
                .isEqualTo("It was formed in Lisbon.");
    }

    @Test
    void aNoneFromTheModelChangesNothing() {
        JsonNode stale = userWithAStaleFact();
        Api.Response reply = askWhereTheBandFormed(tag, "It was formed in Lisbon.");
        int before = items(api.get(key, "/memory?userId=una&limit=100")).size();

        Api.Response resolved = feedback(reply.text("turnId"), "verdict", "correct");

        assertThat(resolved.text("outcome")).isEqualTo("resolved");
        assertThat(resolved.body().path("learned").path("action").asString()).isEqualTo("none");
        assertThat(items(api.get(key, "/memory?userId=una&limit=100"))).hasSize(before);
        JsonNode unchanged =
                api.get(key, "/memory/" + stale.path("id").asString()).body();
        assertThat(unchanged.path("version").asInt()).isEqualTo(1);
        assertThat(fake.calls(c -> c.is(Step.MEMORY_REFLECTION) && c.mentions(tag)))
                .hasSize(1);
    }

    @Test
    void aDirectAnswerThatMeansTheSameAsTheReplyEndsTheEpisode() {
        userWithAStaleFact();
        Api.Response reply = askWhereTheBandFormed(tag, "Your sister's band was formed in Lisbon.");

        Api.Response resolved = feedback(reply.text("turnId"), "answer", "Your sister's band was formed in Lisbon.");

        assertThat(resolved.text("outcome")).isEqualTo("resolved");
        assertThat(fake.calls(c -> c.is(Step.REASONING_STEP) && c.mentions(tag)))
                .isEmpty();
    }

    @Test
    void theTrialsRunOutAfterTheConfiguredMaximum() {
        userWithAStaleFact();
        Api.Response reply = askWhereTheBandFormed(tag, "Lisbon.");
        String[] answers = {"Madrid.", "A small village by the sea near Tromsø.", "Under the Eiffel tower in Paris."};
        AtomicInteger trial = new AtomicInteger();
        onModelCall(
                call -> call.is(Step.REASONING_STEP) && call.mentions(tag),
                call -> Answer.json("{\"thought\": \"guess\", \"action\": \"finish\", \"argument\": \""
                        + answers[trial.getAndIncrement()] + "\"}"));

        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            outcomes.add(feedback(reply.text("turnId"), "verdict", "incorrect", "hint", "Think north.")
                    .text("outcome"));
        }

        assertThat(outcomes).containsExactly("retried", "retried", "retried", "exhausted");
    }

    @Test
    void invalidOrForeignFeedbackIsRefused() {
        userWithAStaleFact();
        Api.Response reply = askWhereTheBandFormed(tag, "Lisbon.");
        String otherKey = api.newTenant();

        assertThat(api.send(
                                "POST",
                                "/reflection/feedback",
                                otherKey,
                                Json.object("turnId", reply.text("turnId"), "verdict", "correct"))
                        .status())
                .isEqualTo(404);
        assertProblem(feedback(reply.text("turnId"), "hint", "  "), 400, "invalid-request");
        assertProblem(feedback(reply.text("userTurnId"), "verdict", "correct"), 400, "invalid-request");
        assertProblem(feedback(reply.text("turnId"), "verdict", "maybe"), 400, "invalid-request");
        assertProblem(api.get(otherKey, "/reflection/episodes/" + UUID.randomUUID()), 404, "not-found");
    }

    @Test
    void aReasonedReplyAnswersAMultiHopQuestionFromSeveralMemoriesFoundOneAfterAnother() {
        key = api.newTenant();
        String past = api.newSession(key, "vic", null);
        api.send("POST", "/sessions/" + past + "/turns", key, """
                {"turns": [{"role": "user", "content": "My sister's band is called The Gulls"},
                           {"role": "user", "content": "The Gulls were formed in Porto"},
                           {"role": "user", "content": "Porto is in Portugal, where Luis Montenegro is prime minister"}]}""");
        String session = api.newSession(key, "vic", null);
        String question = "Who leads the country where my sister's band was formed? " + tag;
        String[][] plan = {
            {"search", "sister band name"},
            {"search", "The Gulls formed"},
            {"search", "Portugal prime minister"},
            {"finish", "Luis Montenegro"}
        };
        onModelCall(call -> call.is(Step.REASONING_STEP) && call.mentions(tag), call -> {
            String scratchpad =
                    call.lastUserMessage().substring(call.lastUserMessage().indexOf(question));
            int done = (int) Pattern.compile("Observation \\d+:")
                    .matcher(scratchpad)
                    .results()
                    .count();
            return Answer.json("{\"thought\": \"step " + done + "\", \"action\": \"" + plan[done][0]
                    + "\", \"argument\": \"" + plan[done][1] + "\"}");
        });

        Api.Response reply = api.send(
                "POST", "/chat", key, Json.object("sessionId", session, "message", question, "reasoning", true));

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.text("reply")).isEqualTo("Luis Montenegro");
        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .doesNotContain("User: " + question)
                .contains(
                        "User: My sister's band is called The Gulls",
                        "User: The Gulls were formed in Porto",
                        "User: Porto is in Portugal, where Luis Montenegro is prime minister");
        JsonNode episode =
                api.get(key, "/reflection/episodes/" + reply.text("episodeId")).body();
        JsonNode steps = episode.path("trials").get(0).path("steps");
        assertThat(steps.findValuesAsString("action")).containsExactly("search", "search", "search", "finish");
        assertThat(steps.get(1).path("observation").asString()).contains("formed in Porto");
        assertThat(fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag))).isEmpty();
    }

    @Test
    void confirmingARerankedReplyRewardsItsMemoriesInTheReranker() {
        key = api.newTenant();
        String reranked = "{\"write\": [\"history\"], \"read\": [\"history\"], \"rerank\": true}";
        String past = api.newSession(key, "wes", reranked);
        api.importTurns(key, past, "I collect vinyl records", "Nice.");
        String session = api.newSession(key, "wes", reranked);
        String question = "What do I collect? " + tag;
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(question),
                call -> Answer.json("{\"reply\": \"Vinyl.\", \"remember\": false, \"citations\": []}"));
        Api.Response reply = api.chat(key, session, question);
        assertThat(api.get(key, "/reflection/reranker")
                        .body()
                        .path("averageReward")
                        .asDouble())
                .isEqualTo(-1.0);

        feedback(reply.text("turnId"), "verdict", "correct");

        JsonNode status = api.get(key, "/reflection/reranker").body();
        assertThat(status.path("feedback").asInt()).isEqualTo(1);
        assertThat(status.path("averageReward").asDouble()).isEqualTo(1.0);
    }
}
