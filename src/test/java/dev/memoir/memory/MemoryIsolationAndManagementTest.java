package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class MemoryIsolationAndManagementTest extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void aTenantNeverSeesAnotherTenantsUserEvenWithTheSameUserId() {
        String acme = api.newTenant();
        String globex = api.newTenant();
        String acmeSession = api.newSession(acme, "alice", null);
        api.importTurns(acme, acmeSession, "My secret code word is marmalade " + tag, "Got it.");
        String acmeMemory = items(api.get(acme, "/memory?userId=alice"))
                .getFirst()
                .path("id")
                .asString();

        assertThat(items(api.get(globex, "/memory?userId=alice&query=secret%20code%20word")))
                .isEmpty();
        assertThat(api.get(globex, "/memory/" + acmeMemory).status()).isEqualTo(404);
        assertThat(api.get(globex, "/sessions/" + acmeSession).status()).isEqualTo(404);
        assertThat(api.chat(globex, acmeSession, "hi").status()).isEqualTo(404);
        assertThat(api.send("PATCH", "/memory/" + acmeMemory, globex, "{\"text\": \"x\"}")
                        .status())
                .isEqualTo(404);
        assertThat(items(api.get(globex, "/sessions?userId=alice"))).isEmpty();

        String globexSession = api.newSession(globex, "alice", null);
        String question = "What is my secret code word? " + tag + "-globex";
        api.chat(globex, globexSession, question);
        ChatCall replyCall =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag + "-globex")).getFirst();
        assertThat(replyCall.prompt()).doesNotContain("marmalade");
    }

    @Test
    void oneUsersMemoriesAreNotRetrievedForAnotherUserOfTheSameTenant() {
        String key = api.newTenant();
        String alice = api.newSession(key, "alice", null);
        api.importTurns(key, alice, "My secret code word is marmalade " + tag, "Got it.");
        String bob = api.newSession(key, "bob", null);
        String question = "What is my secret code word? " + tag + "-bob";

        Api.Response reply = api.chat(key, bob, question);

        assertThat(reply.body().path("memories").findValuesAsString("text"))
                .noneMatch(text -> text.contains("marmalade"));
        ChatCall replyCall =
                fake.calls(c -> c.is(Step.REPLY) && c.mentions(tag + "-bob")).getFirst();
        assertThat(replyCall.prompt()).doesNotContain("marmalade");
        assertThat(items(api.get(key, "/memory?userId=bob&query=secret%20code")))
                .allSatisfy(m -> assertThat(m.path("text").asString()).doesNotContain("marmalade"));
    }

    @Test
    void editingAMemoryReEmbedsItSoSearchFindsTheNewText() {
        String key = api.newTenant();
        String session = api.newSession(key, "frank", null);
        api.importTurns(key, session, "I live in Oslo", "Nice city.");
        JsonNode oslo = items(api.get(key, "/memory?userId=frank&query=Oslo")).getFirst();
        assertThat(oslo.path("text").asString()).isEqualTo("User: I live in Oslo");

        Api.Response edited = api.send(
                "PATCH",
                "/memory/" + oslo.path("id").asString(),
                key,
                "{\"text\": \"User: I play the cello in an orchestra\"}");

        assertThat(edited.status()).isEqualTo(200);
        assertThat(edited.text("text")).isEqualTo("User: I play the cello in an orchestra");
        JsonNode best = items(api.get(key, "/memory?userId=frank&query=musical%20instrument"))
                .getFirst();
        assertThat(best.path("id").asString()).isEqualTo(oslo.path("id").asString());
        assertThat(api.send("PATCH", "/memory/" + oslo.path("id").asString(), key, "{\"text\": \"\"}")
                        .status())
                .isEqualTo(400);
    }

    @Test
    void listingWithoutAQueryIsNewestFirstAndDeleteRemovesOneMemory() {
        String key = api.newTenant();
        String session = api.newSession(key, "gina", null);
        api.importTurns(key, session, "first", "second");
        api.importTurns(key, session, "third", "fourth");

        Api.Response listed = api.get(key, "/memory?userId=gina&limit=3");

        assertThat(items(listed))
                .extracting(m -> m.path("text").asString())
                .containsExactly("Assistant: fourth", "User: third", "Assistant: second");
        assertThat(items(listed))
                .allSatisfy(m -> assertThat(m.path("score").isNull()).isTrue());
        String id = items(listed).getFirst().path("id").asString();
        assertThat(api.send("DELETE", "/memory/" + id, key, null).status()).isEqualTo(204);
        assertThat(api.get(key, "/memory/" + id).status()).isEqualTo(404);
        assertThat(items(api.get(key, "/memory?userId=gina"))).hasSize(3);
    }

    @Test
    void erasingAUserRemovesTheirSessionsTurnsAndMemoriesAndNothingElse() {
        String key = api.newTenant();
        String first = api.newSession(key, "hank", null);
        api.importTurns(key, first, "one", "two");
        String second = api.newSession(key, "hank", null);
        api.importTurns(key, second, "three", "four");
        String other = api.newSession(key, "ivy", null);
        api.importTurns(key, other, "keep me", "kept");
        // Closed, with its summary written: a job outcome to erase too.
        api.close(key, first);
        eventually()
                .until(() -> api.get(key, "/sessions/" + first)
                        .body()
                        .path("jobs")
                        .toString()
                        .contains("done"));

        Api.Response erased = api.send("DELETE", "/memory?userId=hank", key, null);

        assertThat(erased.status()).isEqualTo(200);
        assertThat(erased.body().path("sessions").asInt()).isEqualTo(2);
        assertThat(erased.body().path("turns").asInt()).isEqualTo(4);
        assertThat(erased.body().path("memories").asInt())
                .as("four history records and a summary")
                .isEqualTo(5);
        assertThat(jdbc.sql("select count(*) from job_runs where session_id = ?")
                        .param(UUID.fromString(first))
                        .query(Integer.class)
                        .single())
                .as("the erased session's job outcomes")
                .isZero();
        assertThat(items(api.get(key, "/memory?userId=hank"))).isEmpty();
        assertThat(api.get(key, "/sessions/" + first).status()).isEqualTo(404);
        assertThat(items(api.get(key, "/sessions?userId=hank"))).isEmpty();
        assertThat(items(api.get(key, "/memory?userId=ivy"))).hasSize(2);
    }
}
