package dev.memoir.writing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class RecursiveSummaryTest extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    private static final String RECURSIVE = "{\"strategy\": \"recursive\"}";

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private String key;

    /** The previous memory the fold was given, as the prompt shows it. */
    private static String previousIn(ChatCall call) {
        String prompt = call.lastUserMessage();
        return prompt.substring(prompt.indexOf("[Previous memory]:\n") + 19, prompt.indexOf("\n\n[Session]:"));
    }

    /** Scripts folds to append the session's fact to the previous memory, so each version shows what it built on. */
    private void foldsAppendTheSessionFact(Duration delay) {
        onModelCall(call -> call.is(Step.RECURSIVE_SUMMARY) && call.mentions(tag), call -> {
            String previous = previousIn(call);
            String fact = call.lastUserMessage().replaceAll("(?s).*User: I like (\\w+) .*", "$1");
            String updated = (previous.startsWith("(empty") ? "" : previous + " ") + "Likes " + fact + ".";
            return Answer.delayed(delay, updated);
        });
    }

    private String closedSessionAbout(String thing) {
        String session = api.newSession(key, "noa", RECURSIVE);
        api.importTurns(key, session, "I like " + thing + " " + tag, "Noted.");
        api.close(key, session);
        return session;
    }

    private JsonNode summary() {
        List<JsonNode> items = ofKind(api.get(key, "/memory?userId=noa&kind=recursive_summary"), "recursive_summary");
        return items.isEmpty() ? null : items.getFirst();
    }

    private JsonNode summaryAtVersion(int version) {
        return eventually()
                .until(this::summary, s -> s != null && s.path("version").asInt() == version);
    }

    @Test
    void eachCloseFoldsTheSessionIntoOneEvolvingSummaryKeepingEveryVersion() {
        key = api.newTenant();
        foldsAppendTheSessionFact(Duration.ZERO);

        String first = closedSessionAbout("tea");
        assertThat(summaryAtVersion(1).path("text").asString()).isEqualTo("Likes tea.");
        String second = closedSessionAbout("chess");
        assertThat(summaryAtVersion(2).path("text").asString()).isEqualTo("Likes tea. Likes chess.");
        String third = closedSessionAbout("jazz");
        JsonNode latest = summaryAtVersion(3);

        assertThat(latest.path("text").asString()).isEqualTo("Likes tea. Likes chess. Likes jazz.");
        List<ChatCall> folds = fake.calls(c -> c.is(Step.RECURSIVE_SUMMARY) && c.mentions(tag));
        assertThat(folds)
                .extracting(RecursiveSummaryTest::previousIn)
                // The stored summary is quoted on lines of its own: indented.
                .containsExactly("(empty: this is the first session)", "\tLikes tea.", "\tLikes tea. Likes chess.");
        assertThat(items(api.get(key, "/memory?userId=noa&kind=recursive_summary")))
                .hasSize(1);

        JsonNode revisions = api.get(key, "/memory/" + latest.path("id").asString() + "/revisions")
                .body()
                .path("items");
        assertThat(revisions.findValuesAsString("version")).containsExactly("3", "2", "1");
        assertThat(revisions.findValuesAsString("sessionId")).containsExactly(third, second, first);
        assertThat(revisions.get(2).path("text").asString()).isEqualTo("Likes tea.");
        assertThat(revisions.get(0).path("reason").asString()).isEqualTo("recursive-summary");

        String next = api.newSession(key, "noa", RECURSIVE);
        String question = "What music should I put on? " + tag;
        Api.Response reply = api.chat(key, next, question);
        assertThat(reply.body().path("memories").findValuesAsString("kind")).containsExactly("recursive_summary");
        assertThat(fake.calls(c -> c.is(Step.REPLY) && c.mentions(question))
                        .getFirst()
                        .systemPrompt())
                .contains("[What you know about the user and yourself]:\n\tLikes tea. Likes chess. Likes jazz.");
    }

    @Test
    void aFoldHoldsNoLockNorTransactionWhileTheModelWrites() {
        key = api.newTenant();
        CountDownLatch asked = new CountDownLatch(1);
        onModelCall(call -> call.is(Step.RECURSIVE_SUMMARY) && call.mentions(tag), call -> {
            asked.countDown();
            return Answer.delayed(Duration.ofMillis(1500), "Likes slow models.");
        });
        String session = api.newSession(key, "noa", RECURSIVE);
        api.importTurns(key, session, "I like patience " + tag, "Noted.");

        api.close(key, session);

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> asked.getCount() == 0);
        // Well into the model's 1.5 s; other tests' jobs hold locks and transactions for milliseconds only.
        Awaitility.await().pollDelay(Duration.ofMillis(800)).until(() -> true);
        assertThat(jdbc.sql("""
                select count(*) from pg_locks l join pg_stat_activity a on a.pid = l.pid
                where l.locktype = 'advisory' and a.datname = current_database()
                  and a.state_change < now() - interval '600 milliseconds'""").query(Long.class).single())
                .as("advisory locks held while the model writes")
                .isZero();
        assertThat(jdbc.sql("""
                select count(*) from pg_stat_activity
                where datname = current_database() and state like 'idle in transaction%'
                  and state_change < now() - interval '600 milliseconds'""").query(Long.class).single())
                .as("transactions left open while the model writes")
                .isZero();
        eventually().until(() -> summaryAtVersion(1).path("text").asString().equals("Likes slow models."));
    }

    @Test
    void twoSessionsClosingAtOnceAreBothFoldedWithoutLosingAnUpdate() {
        key = api.newTenant();
        foldsAppendTheSessionFact(Duration.ofMillis(300));
        String first = api.newSession(key, "noa", RECURSIVE);
        api.importTurns(key, first, "I like rowing " + tag, "Noted.");
        String second = api.newSession(key, "noa", RECURSIVE);
        api.importTurns(key, second, "I like baking " + tag, "Noted.");

        CompletableFuture<Api.Response> closeFirst = CompletableFuture.supplyAsync(() -> api.close(key, first));
        CompletableFuture<Api.Response> closeSecond = CompletableFuture.supplyAsync(() -> api.close(key, second));
        assertThat(closeFirst.join().status()).isEqualTo(202);
        assertThat(closeSecond.join().status()).isEqualTo(202);

        String text = summaryAtVersion(2).path("text").asString();
        assertThat(text).contains("Likes rowing.").contains("Likes baking.");
        // The model is asked with no lock held, so two workers may both fold the same state; the loser's work is
        // dropped and made again from the winner's summary: at most one wasted call per fold.
        assertThat(fake.calls(c -> c.is(Step.RECURSIVE_SUMMARY) && c.mentions(tag)))
                .hasSizeBetween(2, 4);
    }

    @Test
    void theSummaryIsKeptToTheConfiguredNumberOfSentences() {
        key = api.newTenant();
        StringBuilder longAnswer = new StringBuilder();
        for (int i = 1; i <= 25; i++) {
            longAnswer.append("Fact number ").append(i).append(". ");
        }
        onModelCall(
                call -> call.is(Step.RECURSIVE_SUMMARY) && call.mentions(tag),
                call -> Answer.content(longAnswer.toString()));

        closedSessionAbout("lists");

        String text = summaryAtVersion(1).path("text").asString();
        assertThat(text.split("\\. ?")).hasSize(20);
        assertThat(text).endsWith("Fact number 20.");
        assertThat(fake.calls(c -> c.is(Step.RECURSIVE_SUMMARY) && c.mentions(tag))
                        .getFirst()
                        .lastUserMessage())
                .contains("at most 20 sentences");
    }
}
