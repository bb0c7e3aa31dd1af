package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.search.HybridSearchRepository;
import dev.memoir.memory.search.SearchProperties;
import dev.memoir.memory.search.SearchSettings;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;
import dev.memoir.tenant.TenantId;

import tools.jackson.databind.JsonNode;

class SupersessionTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private static List<String> ids(Api.Response response) {
        return items(response).stream().map(m -> m.path("id").asString()).toList();
    }

    @Test
    void deletingTheFactThatSupersededAnotherMakesTheOlderOneLiveAgain() {
        String key = api.newTenant();
        String paris = api.addFact(key, "ines", "Ines lives in Paris " + tag, "supersedes", List.of());
        String berlin = api.addFact(key, "ines", "Ines moved to Berlin " + tag, "supersedes", List.of(paris));
        assertThat(api.get(key, "/memory/" + paris).body().path("supersededBy").asString())
                .isEqualTo(berlin);

        assertThat(api.send("DELETE", "/memory/" + berlin, key, null).status()).isEqualTo(204);

        JsonNode again = api.get(key, "/memory/" + paris).body();
        assertThat(again.path("supersededBy").isMissingNode()
                        || again.path("supersededBy").isNull())
                .as(again.toString())
                .isTrue();
        assertThat(ids(api.get(key, "/memory?userId=ines"))).containsExactly(paris);
    }

    /**
     * The trigger that reinstates what a deleted memory superseded (V34) fires only for the kinds that supersede
     * (V47): a kind added to {@link MemoryKind#FACT_BEARING} must be added to the trigger's condition too.
     */
    @Test
    void theReinstatingTriggerFiresForExactlyTheFactBearingKinds() {
        String definition = jdbc.sql("""
                select pg_get_triggerdef(t.oid) from pg_trigger t
                where t.tgrelid = 'memory_records'::regclass and t.tgname = 'memory_records_reinstate_superseded'""").query(String.class).single();
        for (MemoryKind kind : MemoryKind.values()) {
            assertThat(definition.contains("'" + kind.wireName() + "'"))
                    .as(kind + " in " + definition)
                    .isEqualTo(kind.factBearing());
        }
    }

    @Test
    void aFactThatSupersedesAnotherLeavesItOutOfSearchAndListingsButKeepsItWithItsInterval() {
        String key = api.newTenant();
        String paris = api.addFact(
                key, "ana", "Ana lives in Paris " + tag, "occurredAt", "2024-03-01T09:00:00Z", "supersedes", List.of());
        Api.Response berlin = api.addMemory(
                key,
                "ana",
                "Ana moved to Berlin " + tag,
                "occurredAt",
                "2024-06-10T18:00:00Z",
                "supersedes",
                List.of(paris));

        assertThat(berlin.status()).isEqualTo(201);
        assertThat(berlin.body().path("supersedes"))
                .extracting(JsonNode::asString)
                .containsExactly(paris);
        JsonNode old = api.get(key, "/memory/" + paris).body();
        assertThat(old.path("validTo").asString()).isEqualTo("2024-06-10T18:00:00Z");
        assertThat(old.path("supersededBy").asString()).isEqualTo(berlin.text("id"));
        assertThat(old.path("text").asString()).as("never deleted for it").startsWith("Ana lives in Paris");

        assertThat(ids(api.get(key, "/memory?userId=ana"))).containsExactly(berlin.text("id"));
        assertThat(ids(api.get(key, "/memory?userId=ana&query=where%20does%20Ana%20live")))
                .containsExactly(berlin.text("id"));
        assertThat(ids(api.get(key, "/memory?userId=ana&includeSuperseded=true")))
                .containsExactlyInAnyOrder(paris, berlin.text("id"));
        assertThat(ids(api.get(key, "/memory?userId=ana&query=where%20does%20Ana%20live&includeSuperseded=true")))
                .containsExactlyInAnyOrder(paris, berlin.text("id"));
        assertThat(ids(api.get(key, "/memory?userId=ana&asOf=2024-04-01T00:00:00Z")))
                .as("as it stood in April")
                .containsExactly(paris);
        assertThat(ids(api.get(key, "/memory?userId=ana&query=Ana%20lives&asOf=2024-04-01T00:00:00Z")))
                .containsExactly(paris);
        assertThat(ids(api.get(key, "/memory?userId=ana&asOf=2024-01-01T00:00:00Z")))
                .as("before either was said")
                .isEmpty();
        assertThat(ids(api.get(key, "/memory?userId=ana&asOf=2024-07-01T00:00:00Z")))
                .containsExactly(berlin.text("id"));
    }

    @Test
    void chatRepliesReadOnlyTheLiveFact() {
        String key = api.newTenant();
        String paris = api.addFact(
                key, "cy", "Cy lives in Paris " + tag, "occurredAt", "2024-03-01T09:00:00Z", "supersedes", List.of());
        api.addMemory(
                key,
                "cy",
                "Cy moved to Berlin " + tag,
                "occurredAt",
                "2024-06-10T18:00:00Z",
                "supersedes",
                List.of(paris));
        String session = api.newSession(key, "cy", null);

        api.chat(key, session, "Where do I live " + tag + "?");

        String prompt = fake.calls(c -> c.is(Step.REPLY) && c.mentions("Where do I live " + tag))
                .getFirst()
                .prompt();
        assertThat(prompt).contains("Cy moved to Berlin " + tag).doesNotContain("Cy lives in Paris " + tag);
    }

    @Test
    void patchingSupersedesReplacesTheSetAndAnEmptyListMakesThemLiveAgain() {
        String key = api.newTenant();
        String a = api.addFact(
                key, "bo", "Bo drives a Fiat " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String b = api.addFact(
                key, "bo", "Bo drives a Volvo " + tag, "occurredAt", "2024-02-01T00:00:00Z", "supersedes", List.of());

        Api.Response set = api.send("PATCH", "/memory/" + b, key, Json.object("supersedes", List.of(a)));
        assertThat(set.status()).isEqualTo(200);
        assertThat(set.body().path("supersedes")).extracting(JsonNode::asString).containsExactly(a);
        assertThat(set.body().path("version").asInt())
                .as("no new text, no new version")
                .isEqualTo(1);
        assertThat(ids(api.get(key, "/memory?userId=bo"))).containsExactly(b);

        Api.Response cleared = api.send("PATCH", "/memory/" + b, key, "{\"supersedes\": []}");
        assertThat(cleared.body().has("supersedes")).isFalse();
        JsonNode live = api.get(key, "/memory/" + a).body();
        assertThat(live.has("validTo")).isFalse();
        assertThat(live.has("supersededBy")).isFalse();
        assertThat(ids(api.get(key, "/memory?userId=bo"))).containsExactlyInAnyOrder(a, b);
    }

    @Test
    void supersedesRefusesWhatIsNotTheUsersLiveFactBearingMemoryAndNamesTheField() {
        String key = api.newTenant();
        String mine = api.addFact(
                key, "di", "Di is a teacher " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String theirs = api.addFact(
                key, "eve", "Eve is a teacher " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String otherTenants = api.addFact(
                api.newTenant(),
                "di",
                "Di is a pilot " + tag,
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        String session = api.newSession(key, "di", null);
        api.importTurns(key, session, "I teach maths " + tag, "Nice.");
        String history = ofKind(api.get(key, "/memory?userId=di&kind=history"), "history")
                .getFirst()
                .path("id")
                .asString();
        String newer = api.addFact(
                key, "di", "Di is a nurse " + tag, "occurredAt", "2024-05-01T00:00:00Z", "supersedes", List.of(mine));

        for (String refused :
                List.of(theirs, otherTenants, history, UUID.randomUUID().toString())) {
            Api.Response response =
                    api.send("PATCH", "/memory/" + newer, key, Json.object("supersedes", List.of(refused)));
            assertThat(response.status()).as(refused).isEqualTo(400);
            assertThat(response.raw()).contains("supersedes");
        }
        assertThat(api.send("PATCH", "/memory/" + newer, key, Json.object("supersedes", List.of(newer)))
                        .raw())
                .contains("cannot supersede itself");
        Api.Response byTheSuperseded =
                api.send("PATCH", "/memory/" + mine, key, Json.object("supersedes", List.of(newer)));
        assertThat(byTheSuperseded.status())
                .as("a superseded memory supersedes nothing: no loops")
                .isEqualTo(400);
        String third = api.addFact(
                key, "di", "Di is a doctor " + tag, "occurredAt", "2024-09-01T00:00:00Z", "supersedes", List.of());
        assertThat(api.send("PATCH", "/memory/" + third, key, Json.object("supersedes", List.of(mine)))
                        .raw())
                .contains("already superseded by " + newer);
        assertThat(api.get(key, "/memory/" + mine).text("supersededBy"))
                .as("nothing changed")
                .isEqualTo(newer);
    }

    @Test
    void theTextOfASupersededFactAddedAgainIsANewLiveMemory() {
        String key = api.newTenant();
        String first = api.addFact(
                key, "fa", "Fa lives in Rome " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String moved = api.addFact(
                key,
                "fa",
                "Fa moved to Oslo " + tag,
                "occurredAt",
                "2024-02-01T00:00:00Z",
                "supersedes",
                List.of(first));

        Api.Response back = api.addMemory(
                key,
                "fa",
                "Fa lives in Rome " + tag,
                "occurredAt",
                "2024-03-01T00:00:00Z",
                "supersedes",
                List.of(moved));

        assertThat(back.status()).isEqualTo(201);
        assertThat(back.text("id")).isNotEqualTo(first);
        assertThat(ids(api.get(key, "/memory?userId=fa"))).containsExactly(back.text("id"));
    }

    @Test
    void deletingTheMemoryThatSupersededAnotherMakesThatOneLiveAgain() {
        String key = api.newTenant();
        String rome = api.addFact(
                key, "ky", "Ky lives in Rome " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String oslo = api.addFact(
                key,
                "ky",
                "Ky moved to Oslo " + tag,
                "occurredAt",
                "2024-02-01T00:00:00Z",
                "supersedes",
                List.of(rome));

        assertThat(api.send("DELETE", "/memory/" + oslo, key, null).status()).isEqualTo(204);

        JsonNode back = api.get(key, "/memory/" + rome).body();
        assertThat(back.has("supersededBy")).isFalse();
        assertThat(back.has("validTo")).isFalse();
        assertThat(ids(api.get(key, "/memory?userId=ky"))).containsExactly(rome);
    }

    @Test
    void theSameFactAddedAgainWithSupersedesAddsToWhatItSupersededBefore() {
        String key = api.newTenant();
        String a = api.addFact(
                key, "lu", "Lu has a red car " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String b = api.addFact(
                key, "lu", "Lu has a blue car " + tag, "occurredAt", "2024-02-01T00:00:00Z", "supersedes", List.of());
        String c = api.addFact(
                key, "lu", "Lu has a green car " + tag, "occurredAt", "2024-03-01T00:00:00Z", "supersedes", List.of(a));

        Api.Response again = api.addMemory(
                key, "lu", "Lu has a green car " + tag, "occurredAt", "2024-03-01T00:00:00Z", "supersedes", List.of(b));

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text("id")).isEqualTo(c);
        assertThat(again.body().path("supersedes"))
                .extracting(JsonNode::asString)
                .containsExactlyInAnyOrder(a, b);
    }

    @Test
    void twoMemoriesCannotSupersedeEachOther() {
        String key = api.newTenant();
        String a = api.addFact(
                key, "mo", "Mo plays chess " + tag, "occurredAt", "2024-01-01T00:00:00Z", "supersedes", List.of());
        String b = api.addFact(
                key, "mo", "Mo plays go " + tag, "occurredAt", "2024-02-01T00:00:00Z", "supersedes", List.of());
        assertThat(api.send("PATCH", "/memory/" + b, key, Json.object("supersedes", List.of(a)))
                        .status())
                .isEqualTo(200);

        Api.Response back = api.send("PATCH", "/memory/" + a, key, Json.object("supersedes", List.of(b)));

        assertThat(back.status()).isEqualTo(400);
        assertThat(back.raw()).contains("supersedes").contains("itself superseded");
        assertThat(ids(api.get(key, "/memory?userId=mo"))).containsExactly(b);
    }

    @Test
    void aFactAddedAgainAfterItExpiredIsANewLiveMemory() {
        String key = api.newTenant();
        String old = api.addFact(
                key,
                "ned",
                "Ned is on call " + tag,
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of(),
                "expiresAt",
                Instant.now().plusSeconds(3600));
        jdbc.sql("update memory_records set expires_at = now() - interval '1 second' where id = cast(:id as uuid)")
                .param("id", old)
                .update();

        Api.Response again = api.addMemory(
                key, "ned", "Ned is on call " + tag, "occurredAt", "2024-05-01T00:00:00Z", "supersedes", List.of());

        assertThat(again.status()).isEqualTo(201);
        assertThat(again.text("id")).isNotEqualTo(old);
        assertThat(again.body().has("expiresAt")).isFalse();
        assertThat(ids(api.get(key, "/memory?userId=ned"))).containsExactly(again.text("id"));
    }

    @Test
    void listingRefusesAsOfInTheFutureOrWithIncludeSuperseded() {
        String key = api.newTenant();
        Api.Response future =
                api.get(key, "/memory?userId=gi&asOf=" + Instant.now().plusSeconds(3600));
        assertThat(future.status()).isEqualTo(400);
        assertThat(future.raw()).contains("asOf");
        Api.Response both = api.get(key, "/memory?userId=gi&asOf=2024-01-01T00:00:00Z&includeSuperseded=true");
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.raw()).contains("asOf");
    }

    @Test
    void memoirJudgesWhatAFactAddedWithoutSupersedesSupersedesWithOneModelCall() {
        String key = api.newTenant();
        String job = api.addFact(
                key,
                "hal",
                "Hal works as a nurse at St Mary's hospital " + tag,
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        String allergy = api.addFact(
                key,
                "hal",
                "Hal is allergic to peanuts " + tag,
                "occurredAt",
                "2024-01-02T00:00:00Z",
                "supersedes",
                List.of());
        onModelCall(
                call -> call.is(Step.SUPERSESSION) && call.mentions("software engineer at Acme " + tag),
                call -> Answer.content(FakeOpenAiServer.relations(call, "nurse", "updates")));

        String newJob = api.addFact(
                key,
                "hal",
                "Hal now works as a software engineer at Acme " + tag,
                "occurredAt",
                "2024-06-01T00:00:00Z");

        eventually()
                .untilAsserted(() -> assertThat(api.get(key, "/memory/" + job).text("supersededBy"))
                        .isEqualTo(newJob));
        assertThat(api.get(key, "/memory/" + job).text("validTo")).isEqualTo("2024-06-01T00:00:00Z");
        assertThat(api.get(key, "/memory/" + allergy).body().has("supersededBy"))
                .as("unrelated")
                .isFalse();
        assertThat(fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("software engineer at Acme " + tag)))
                .hasSize(1);
    }

    @Test
    void noModelCallIsMadeWhenTheUserHasNoCloseMemory() {
        String key = api.newTenant();
        api.addMemory(key, "ida", "Ida collects stamps " + tag, "occurredAt", "2024-01-01T00:00:00Z");

        String id = api.addFact(
                key, "ida", "Quantum chromodynamics lecture notes " + tag, "occurredAt", "2024-02-01T00:00:00Z");

        eventually().untilAsserted(() -> assertThat(jobsWaiting(id)).isZero());
        assertThat(fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("Quantum chromodynamics " + tag)))
                .isEmpty();
    }

    @Test
    void aConditionalNoteThatUpdatesAFactSupersedesItAndOneThatRepeatsALiveMemoryIsNotStored() {
        String key = api.newTenant();
        String nurse = api.addFact(
                key,
                "jo",
                "Jo works as a nurse " + tag + ".",
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        String session = api.newSession(key, "jo", null);
        String news = "I quit the hospital, I am a software engineer at Acme now " + tag;
        String again = "Did I tell you? I code at Acme these days " + tag;
        for (String message : List.of(news, again)) {
            onModelCall(
                    call -> call.is(Step.REPLY) && call.lastUserMessage().equals(message),
                    call -> Answer.json("{\"reply\": \"Congratulations!\", \"remember\": true}"));
        }
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY)
                        && call.lastUserMessage().contains(news),
                call -> Answer.json("{\"context\": \"NaN\", \"summary\": \"NaN\", "
                        + "\"note\": \"Jo works as a software engineer at Acme " + tag + ".\"}"));
        onModelCall(
                call -> call.is(Step.CONDITIONAL_MEMORY)
                        && call.lastUserMessage().contains(again),
                call -> Answer.json("{\"context\": \"NaN\", \"summary\": \"NaN\", "
                        + "\"note\": \"Jo works as a software engineer at Acme and codes there " + tag + ".\"}"));
        onModelCall(
                call -> call.is(Step.SUPERSESSION)
                        && call.mentions("software engineer at Acme " + tag)
                        && !call.mentions("codes there"),
                call -> Answer.content(FakeOpenAiServer.relations(call, "nurse", "updates")));
        onModelCall(
                call -> call.is(Step.SUPERSESSION) && call.mentions("codes there " + tag),
                call -> Answer.content(FakeOpenAiServer.relations(call, "software engineer", "repeats")));

        api.chat(key, session, news);

        String note = eventually()
                .until(
                        () -> ofKind(api.get(key, "/memory?userId=jo&kind=conditional"), "conditional"),
                        list -> list.size() == 1)
                .getFirst()
                .path("id")
                .asString();
        assertThat(fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("software engineer at Acme " + tag)))
                .as("the note was judged against the nurse fact")
                .hasSize(1);
        eventually()
                .untilAsserted(() -> assertThat(api.get(key, "/memory/" + nurse).text("supersededBy"))
                        .isEqualTo(note));
        assertThat(ids(api.get(key, "/memory?userId=jo&kind=fact"))).isEmpty();

        String repeatTurn = api.chat(key, session, again).text("userTurnId");

        eventually()
                .untilAsserted(() -> assertThat(
                                fake.calls(c -> c.is(Step.SUPERSESSION) && c.mentions("codes there " + tag)))
                        .hasSize(1));
        eventually()
                .untilAsserted(() -> assertThat(jobsWaiting(repeatTurn))
                        .as("the note's job is done")
                        .isZero());
        assertThat(ids(api.get(key, "/memory?userId=jo&kind=conditional")))
                .as("the repeat is not stored")
                .containsExactly(note);
    }

    @Autowired
    SearchProperties searchDefaults;

    @Autowired
    SearchSettings searchSettings;

    @Autowired
    TransactionTemplate transaction;

    @Autowired
    MemorySearches searches;

    @Autowired
    TextEmbedder embedder;

    @Test
    void aRecencyWeightRanksTheNewerOfTwoEquallyCloseMemoriesFirstAndExplainsIt() {
        String key = api.newTenant();
        String older = api.addFact(
                key,
                "ova",
                "Ova's favourite tea is green tea " + tag,
                "occurredAt",
                "2023-01-01T00:00:00Z",
                "supersedes",
                List.of());
        String newer = api.addFact(
                key,
                "ova",
                "Ova's favourite tea is green tea, " + tag,
                "occurredAt",
                "2024-01-01T00:00:00Z",
                "supersedes",
                List.of());
        TenantId tenant = new TenantId(jdbc.sql("select tenant_id from memory_records where id = cast(:id as uuid)")
                .param("id", older)
                .query(UUID.class)
                .single());
        SearchProperties d = searchDefaults;
        HybridSearchRepository withRecency = new HybridSearchRepository(
                jdbc,
                new SearchProperties(
                        d.mode(),
                        d.rrfK(),
                        d.denseWeight(),
                        d.lexicalWeight(),
                        d.candidates(),
                        d.lexicalRanking(),
                        d.lexicalNormalization(),
                        d.efSearchFactor(),
                        d.raritySample(),
                        d.fusion(),
                        d.periodWeight(),
                        5.0),
                searchSettings);
        MemorySearch search =
                MemorySearch.of(tenant, "ova", Set.of(MemoryKind.FACT), searches.query("favourite tea " + tag), 2);

        List<HybridSearchRepository.Hit> hits =
                transaction.execute(status -> withRecency.search(search, embedder.modelName()));

        assertThat(hits).extracting(hit -> hit.memory().id().toString()).containsExactly(newer, older);
        assertThat(hits.getFirst().explanation().recencyRank()).isEqualTo(1);
        assertThat(hits.getLast().explanation().recencyRank()).isEqualTo(2);
    }

    @Autowired
    JdbcClient jdbc;

    private long jobsWaiting(String id) {
        return jdbc.sql("select count(*) from scheduled_tasks where task_instance = :id")
                .param("id", id)
                .query(Long.class)
                .single();
    }
}
