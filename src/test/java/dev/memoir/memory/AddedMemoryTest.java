package dev.memoir.memory;

import static dev.memoir.support.Problems.assertBadField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AddedMemoryTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    JdbcClient jdbc;

    @Test
    void anAddedFactIsCreatedWithItsLocationAndIsFoundBySearchAtOnce() {
        String key = api.newTenant();

        HttpResponse<String> created = api.sendWithHeaders(
                "POST",
                "/memory",
                key,
                Json.object(
                        "userId",
                        "alice",
                        "text",
                        "  Alice is allergic to peanuts " + tag + ".  ",
                        "occurredAt",
                        "2024-03-01T09:00:00Z"));

        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode fact = parse(created.body());
        String id = fact.path("id").asString();
        assertThat(created.headers().firstValue("Location")).hasValue("/memory/" + id);
        assertThat(fact.path("kind").asString()).isEqualTo("fact");
        assertThat(fact.path("text").asString()).isEqualTo("Alice is allergic to peanuts " + tag + ".");
        assertThat(fact.path("version").asInt()).isEqualTo(1);
        assertThat(fact.path("occurredFrom").asString()).isEqualTo("2024-03-01T09:00:00Z");
        assertThat(fact.path("occurredTo").asString()).isEqualTo("2024-03-01T09:00:00Z");
        assertThat(fact.path("provenance").has("sessionId"))
                .as("null, as documented, for a memory without one")
                .isTrue();
        assertThat(fact.path("provenance").path("sessionId").isNull()).isTrue();
        assertThat(fact.path("provenance").path("turnIds")).isEmpty();

        JsonNode found = items(api.get(key, "/memory?userId=alice&query=which%20food%20allergy"))
                .getFirst();
        assertThat(found.path("id").asString()).isEqualTo(id);
        assertThat(found.path("score").asDouble()).isPositive();
        assertThat(api.get(key, "/memory/" + id).text("kind")).isEqualTo("fact");
        assertThat(items(api.get(key, "/memory?userId=alice&kind=fact")))
                .extracting(m -> m.path("id").asString())
                .containsExactly(id);
        assertThat(items(api.get(key, "/memory?userId=alice&kind=history"))).isEmpty();
    }

    @Test
    void aFactWithoutATimeIsDatedWhenItWasAdded() {
        String key = api.newTenant();
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        Api.Response created = api.addMemory(key, "bea", "Bea works night shifts " + tag);

        Instant from = Instant.parse(created.text("occurredFrom"));
        assertThat(from).isAfterOrEqualTo(before).isBeforeOrEqualTo(Instant.now());
        assertThat(Instant.parse(api.get(key, "/memory/" + created.text("id")).text("occurredFrom")))
                .isCloseTo(from, Assertions.within(1, ChronoUnit.MILLIS));
    }

    @Test
    void chatRecallsAddedFactsWhateverTheSessionsStrategy() {
        String key = api.newTenant();
        api.addMemory(key, "carl", "Carl's daughter is called Mireille " + tag);
        for (String memory : new String[] {null, "{\"strategy\": \"rmm\"}", "{\"strategy\": \"memochat\"}"}) {
            String session = api.newSession(key, "carl", memory);
            String question = "What is my daughter's name? " + tag + " " + memory;

            Api.Response reply = api.chat(key, session, question);

            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.body()
                            .path("memories")
                            .valueStream()
                            .filter(m -> m.path("kind").asString().equals("fact"))
                            .map(m -> m.path("text").asString()))
                    .as("strategy %s", memory)
                    .containsExactly("Carl's daughter is called Mireille " + tag);
            ChatCall call =
                    fake.calls(c -> c.is(Step.REPLY) && c.mentions(question)).getFirst();
            assertThat(call.prompt())
                    .containsPattern(
                            "\\d+\\. \\[fact, \\d{4}-\\d{2}-\\d{2}\\] Carl's daughter is " + "called Mireille " + tag);
        }
    }

    @Test
    void anAddedFactIsEditableWithRevisionsAndDeletable() {
        String key = api.newTenant();
        String id = api.addMemory(key, "dora", "Dora lives in Lyon " + tag).text("id");

        Api.Response edited =
                api.send("PATCH", "/memory/" + id, key, Json.object("text", "Dora lives in Marseille " + tag));

        assertThat(edited.status()).isEqualTo(200);
        assertThat(edited.body().path("version").asInt()).isEqualTo(2);
        assertThat(items(api.get(key, "/memory/" + id + "/revisions")))
                .extracting(r -> r.path("text").asString())
                .containsExactly("Dora lives in Marseille " + tag, "Dora lives in Lyon " + tag);
        assertThat(items(api.get(key, "/memory?userId=dora&query=Marseille"))
                        .getFirst()
                        .path("id")
                        .asString())
                .isEqualTo(id);
        // The old text is no longer what the memory says: adding it again adds it.
        Api.Response again = api.addMemory(key, "dora", "Dora lives in Lyon " + tag);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.text("id")).isNotEqualTo(id);

        assertThat(api.send("DELETE", "/memory/" + id, key, null).status()).isEqualTo(204);
        assertThat(api.get(key, "/memory/" + id).status()).isEqualTo(404);
        assertThat(jdbc.sql("select count(*) from memory_revisions where memory_id = ?")
                        .param(UUID.fromString(id))
                        .query(Long.class)
                        .single())
                .as("the deleted memory's revisions")
                .isZero();
        assertThat(items(api.get(key, "/memory?userId=dora")))
                .extracting(m -> m.path("id").asString())
                .containsExactly(again.text("id"));
    }

    @Test
    void theSameFactAddedTwiceIsStoredOnceAndErasingTheUserRemovesIt() {
        String key = api.newTenant();
        Api.Response first = api.addMemory(key, "emil", "Emil is vegetarian " + tag);
        Api.Response second = api.addMemory(key, "emil", "Emil is vegetarian " + tag);
        Api.Response otherUser = api.addMemory(key, "fritz", "Emil is vegetarian " + tag);

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.text("id")).isEqualTo(first.text("id"));
        assertThat(otherUser.status()).isEqualTo(201);
        assertThat(items(api.get(key, "/memory?userId=emil"))).hasSize(1);
        assertThat(api.send(
                                "PATCH",
                                "/memory/" + first.text("id"),
                                key,
                                Json.object("text", "Emil eats fish again " + tag))
                        .status())
                .isEqualTo(200);

        Api.Response erased = api.send("DELETE", "/memory?userId=emil", key, null);

        assertThat(erased.body().path("memories").asInt()).isEqualTo(1);
        assertThat(api.get(key, "/memory/" + first.text("id")).status()).isEqualTo(404);
        assertThat(jdbc.sql("select count(*) from memory_revisions where memory_id = ?")
                        .param(UUID.fromString(first.text("id")))
                        .query(Long.class)
                        .single())
                .as("the erased user's revisions")
                .isZero();
        assertThat(api.get(key, "/memory/" + otherUser.text("id")).status()).isEqualTo(200);
        assertThat(api.addMemory(key, "emil", "Emil is vegetarian " + tag).status())
                .isEqualTo(201);
    }

    @Test
    void aMemoryCannotMoveToAnotherUserAndKeepsItsRevisions() {
        String key = api.newTenant();
        String id = api.addMemory(key, "hana", "Hana plays the oboe " + tag).text("id");
        api.send("PATCH", "/memory/" + id, key, Json.object("text", "Hana plays the bassoon " + tag));
        long revisions = jdbc.sql("select count(*) from memory_revisions where memory_id = ?")
                .param(UUID.fromString(id))
                .query(Long.class)
                .single();

        // Another user's partition: PostgreSQL would move the row as a delete and an insert.
        assertThatThrownBy(() -> jdbc.sql("update memory_records set user_id = 'ines' where id = ?")
                        .param(UUID.fromString(id))
                        .update())
                .hasMessageContaining("cannot move to another tenant or user");

        assertThat(api.get(key, "/memory/" + id + "/revisions").body().path("items"))
                .hasSize((int) revisions);
        assertThat(revisions).isEqualTo(2);
        assertThat(items(api.get(key, "/memory?userId=hana")))
                .extracting(m -> m.path("id").asString())
                .containsExactly(id);
    }

    @Test
    void anAddedFactIsMatchedOnlyWithinItsOwnUsersMemories() {
        String key = api.newTenant();
        Api.Response first = api.addMemory(key, "ivo", "Ivo collects stamps " + tag);
        // Dedup keys are unique per user only: the same key held by another tenant's user (a restore, a hand-made
        // row) must neither be returned to this user nor make the lookup ambiguous.
        String otherTenant = jdbc.sql("insert into tenants (id, name) values (gen_random_uuid(), ?) returning id")
                .param("dedup-" + tag)
                .query(String.class)
                .single();
        jdbc.sql("""
                insert into memory_records (id, tenant_id, user_id, kind, text, embedding, dedup_key, created_at,
                                            updated_at, embedding_model)
                select gen_random_uuid(), cast(? as uuid), 'someone-else', kind, 'not Ivo''s', embedding, dedup_key,
                       now(), now(), embedding_model
                from memory_records where id = ?""").params(otherTenant, UUID.fromString(first.text("id"))).update();

        Api.Response again = api.addMemory(key, "ivo", "Ivo collects stamps " + tag);

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text("id")).isEqualTo(first.text("id"));
        assertThat(again.text("text")).isEqualTo("Ivo collects stamps " + tag);
        jdbc.sql("delete from tenants where id = cast(? as uuid)")
                .param(otherTenant)
                .update();
    }

    @Test
    void derivedKindsFutureTimesAndBadTextAreRefusedNamingTheField() {
        String key = api.newTenant();
        for (String kind :
                new String[] {"history", "summary", "conditional", "memo", "recursive_summary", "topic", "reflected"}) {
            Api.Response refused = api.addMemory(key, "gus", "x", "kind", kind);
            assertBadField(refused, "kind");
        }
        assertBadField(
                api.send("POST", "/memory", key, "{\"userId\": \"gus\", \"text\": \"x\", \"kind\": \"gossip\"}"),
                "kind");
        String future = Instant.now().plus(1, ChronoUnit.HOURS).toString();
        assertBadField(api.addMemory(key, "gus", "x", "occurredAt", future), "occurredAt");
        assertBadField(api.send("POST", "/memory", key, "{\"userId\": \"gus\", \"text\": \"  \"}"), "text");
        assertBadField(api.send("POST", "/memory", key, "{\"text\": \"x\"}"), "userId");
        assertBadField(api.send("POST", "/memory", key, "{\"userId\": \" gus\", \"text\": \"x\"}"), "userId");
        assertThat(items(api.get(key, "/memory?userId=gus"))).isEmpty();

        // Within the allowed clock skew a client's clock may run ahead.
        String skewed = Instant.now().plus(1, ChronoUnit.MINUTES).toString();
        assertThat(api.addMemory(key, "gus", "x", "kind", "fact", "occurredAt", skewed)
                        .status())
                .isEqualTo(201);
    }

    @Test
    void anotherTenantsKeyNeverReachesAnAddedFact() {
        String acme = api.newTenant();
        String globex = api.newTenant();
        String id =
                api.addMemory(acme, "hana", "Hana's locker code is 4711 " + tag).text("id");

        assertThat(api.get(globex, "/memory/" + id).status()).isEqualTo(404);
        assertThat(api.send("PATCH", "/memory/" + id, globex, "{\"text\": \"stolen\"}")
                        .status())
                .isEqualTo(404);
        assertThat(api.send("DELETE", "/memory/" + id, globex, null).status()).isEqualTo(404);
        assertThat(items(api.get(globex, "/memory?userId=hana&query=locker%20code")))
                .isEmpty();
        assertThat(api.addMemory(globex, "hana", "Hana's locker code is 4711 " + tag)
                        .status())
                .as("the same text in another tenant is another memory")
                .isEqualTo(201);
        assertThat(api.get(acme, "/memory/" + id).text("text")).isEqualTo("Hana's locker code is 4711 " + tag);
    }

    private static JsonNode parse(String body) {
        return JsonMapper.builder().build().readTree(body);
    }
}
