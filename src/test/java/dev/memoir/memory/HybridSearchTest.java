package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class HybridSearchTest extends IntegrationTest {

    private static final String[] DIALOGUE = {
        "My cousin Thaddeus Okonkwo restores old accordions in his garage.", "That sounds like a lovely craft.",
        "We adopted a small puppy last week, a beagle.", "Congratulations on the new family member!",
        "I am training for a half marathon in the autumn.", "Good luck with the training plan.",
        "The weather has been grey and rainy all week.", "Let us hope for sunshine soon."
    };

    private String userWith(String key, String user) {
        String session = api.newSession(key, user, null);
        assertThat(api.importTurns(key, session, DIALOGUE).status()).isEqualTo(201);
        return session;
    }

    private static List<String> texts(Api.Response response) {
        return items(response).stream().map(m -> m.path("text").asString()).toList();
    }

    @Test
    void aRareNameFindsItsTurnFirstAndHybridKeepsWhatEachRankingFinds() {
        String key = api.newTenant();
        userWith(key, "ann");

        Api.Response lexical = api.get(key, "/memory?userId=ann&kind=history&mode=lexical&query=Thaddeus");
        assertThat(texts(lexical)).containsExactly("User: " + DIALOGUE[0]);

        Api.Response hybrid = api.get(key, "/memory?userId=ann&kind=history&query=Thaddeus&limit=8");
        assertThat(texts(hybrid).getFirst()).isEqualTo("User: " + DIALOGUE[0]);
        // Dense ranking contributes every memory, so hybrid lists more than the keyword match alone.
        assertThat(texts(hybrid)).hasSize(8);

        // A paraphrase with no shared word: only the dense ranking can find it, and hybrid keeps it near the top.
        Api.Response paraphrase =
                api.get(key, "/memory?userId=ann&kind=history&query=Which%20dog%20breed%20did%20we%20get%3F&limit=3");
        assertThat(texts(paraphrase)).contains("User: " + DIALOGUE[2]);
        Api.Response paraphraseLexical = api.get(
                key, "/memory?userId=ann&kind=history&mode=lexical&query=Which%20dog%20breed%20did%20we%20get%3F");
        assertThat(texts(paraphraseLexical)).doesNotContain("User: " + DIALOGUE[2]);
    }

    @Test
    void aQuestionNamingAMonthFindsByKeywordWhatWasSaidThatMonthWhicheverMonthItIs() {
        String key = api.newTenant();
        String session = api.newSession(key, "mo", "{\"write\": [\"history\"], \"read\": [\"history\"]}");
        String[] months = {
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December"
        };
        List<Map<String, Object>> turns = new ArrayList<>();
        for (int m = 0; m < 12; m++) {
            turns.add(Json.fields(
                    "role",
                    "user",
                    "content",
                    "Entry number " + m,
                    "occurredAt",
                    "2023-%02d-15T10:00:00Z".formatted(m + 1)));
        }
        assertThat(api.send("POST", "/sessions/" + session + "/turns", key, Json.object("turns", turns))
                        .status())
                .isEqualTo(201);

        for (int m = 0; m < 12; m++) {
            Api.Response found = api.get(
                    key,
                    "/memory?userId=mo&kind=history&mode=lexical&query=What%20happened%20in%20" + months[m]
                            + "%202023%3F&limit=12");
            assertThat(texts(found)).as(months[m]).isNotEmpty();
            assertThat(texts(found).getFirst()).as(months[m]).isEqualTo("User: Entry number " + m);
        }
    }

    @Test
    void aQuestionNamingAMonthAndYearRanksWhatWasSaidThenThirdAndFirst() {
        String key = api.newTenant();
        String session = api.newSession(key, "shopper", "{\"write\": [\"history\"], \"read\": [\"history\"]}");
        // A purchase each month, told alike, so that neither the words nor the embedding can tell them apart, and
        // the month's name is in every memory of its month.
        String[] bought = {"a new lamp", "a new kettle", "a new rug", "a new kettle lid"};
        List<Map<String, Object>> turns = new ArrayList<>();
        for (int m = 0; m < bought.length; m++) {
            turns.add(Json.fields(
                    "role",
                    "user",
                    "content",
                    "I bought " + bought[m] + " today",
                    "occurredAt",
                    "2023-%02d-10T10:00:00Z".formatted(m + 1)));
            turns.add(Json.fields(
                    "role",
                    "user",
                    "content",
                    "Lovely weather for a walk",
                    "occurredAt",
                    "2023-%02d-11T10:00:00Z".formatted(m + 1)));
        }
        assertThat(api.send("POST", "/sessions/" + session + "/turns", key, Json.object("turns", turns))
                        .status())
                .isEqualTo(201);

        List<JsonNode> found = items(api.get(
                key,
                "/memory?userId=shopper&kind=history&explain=true&limit=8"
                        + "&query=What%20did%20I%20buy%20in%20March%202023%3F"));

        assertThat(found.getFirst().path("text").asString()).isEqualTo("User: I bought a new rug today");
        assertThat(found)
                .filteredOn(m -> !m.path("explanation").path("periodRank").isNull())
                .extracting(m -> m.path("text").asString())
                .containsExactly("User: I bought a new rug today", "User: Lovely weather for a walk");
        JsonNode first = found.getFirst().path("explanation");
        assertThat(first.path("periodRank").asInt()).isEqualTo(1);
        double dense = first.path("denseRank").isNull()
                ? 0
                : 1.0 / (20 + first.path("denseRank").asInt());
        double lexical = first.path("lexicalRank").isNull()
                ? 0
                : first.path("lexicalCoverage").asDouble()
                        / (20 + first.path("lexicalRank").asInt());
        assertThat(first.path("fusedScore").asDouble()).isCloseTo(dense + lexical + 1.0 / 21, Offset.offset(1e-9));

        List<JsonNode> noMonth = items(api.get(
                key, "/memory?userId=shopper&kind=history&explain=true&limit=8" + "&query=What%20did%20I%20buy%3F"));
        assertThat(noMonth)
                .allSatisfy(
                        m -> assertThat(m.path("explanation").path("periodRank").isNull())
                                .isTrue());
    }

    @Test
    void aRareWordOutranksANameRepeatedInEveryGreeting() {
        String key = api.newTenant();
        historyOf(
                key,
                "mel",
                "Hi Melanie! Melanie, so good to hear from you, Melanie ",
                "My aunt just moved to Copenhagen");

        Api.Response found = api.get(
                key,
                "/memory?userId=mel&kind=history&mode=lexical&explain=true&query=Did%20Melanie%20mention%20Copenhagen%3F");

        // ts_rank alone would put the greetings first: they say the name three times each.
        assertThat(texts(found).getFirst()).endsWith("Copenhagen");
        assertThat(items(found)
                        .getFirst()
                        .path("explanation")
                        .path("lexicalScore")
                        .asDouble())
                .isGreaterThan(items(found)
                                .get(1)
                                .path("explanation")
                                .path("lexicalScore")
                                .asDouble()
                        * 3);
    }

    @Test
    void aLexicalMatchOnACommonWordAloneCountsForLittleInTheFusion() {
        String key = api.newTenant();
        historyOf(
                key,
                "mia",
                "Hi Melanie! So good to hear from you ",
                "Melanie's aunt moved to Copenhagen last spring",
                "I bought a new kettle");

        List<JsonNode> found = items(api.get(
                key,
                "/memory?userId=mia&kind=history&explain=true&limit=10"
                        + "&query=Did%20Melanie%27s%20aunt%20move%20to%20Copenhagen%3F"));

        JsonNode everyWord = found.stream()
                .filter(m -> m.path("text").asString().endsWith("last spring"))
                .findFirst()
                .orElseThrow()
                .path("explanation");
        assertThat(everyWord.path("lexicalCoverage").asDouble()).isCloseTo(1.0, Offset.offset(1e-9));
        List<JsonNode> greetings = found.stream()
                .filter(m -> m.path("text").asString().contains("Hi Melanie"))
                .map(m -> m.path("explanation"))
                .toList();
        assertThat(greetings).isNotEmpty().allSatisfy(why -> {
            // "Melanie" is in nine of the ten memories: it carries little of the query's rarity.
            assertThat(why.path("lexicalCoverage").asDouble()).isPositive().isLessThan(0.1);
            double dense = why.path("denseRank").isNull()
                    ? 0
                    : 1.0 / (20 + why.path("denseRank").asInt());
            assertThat(why.path("fusedScore").asDouble())
                    .isCloseTo(
                            dense
                                    + why.path("lexicalCoverage").asDouble()
                                            / (20 + why.path("lexicalRank").asInt()),
                            Offset.offset(1e-9));
        });
        assertThat(found.getFirst().path("text").asString()).endsWith("last spring");
    }

    @Test
    void explainShowsEachResultsLexicalAndDenseRankAndTheFusedScore() {
        String key = api.newTenant();
        userWith(key, "ben");

        Api.Response explained =
                api.get(key, "/memory?userId=ben&kind=history&query=accordions%20Thaddeus&explain=true&limit=8");
        List<JsonNode> results = items(explained);
        JsonNode top = results.getFirst().path("explanation");
        assertThat(top.path("lexicalRank").asInt()).isEqualTo(1);
        assertThat(top.path("lexicalScore").asDouble()).isPositive();
        assertThat(top.path("denseRank").asInt()).isPositive();
        assertThat(top.path("denseScore").asDouble()).isBetween(-1.0, 1.0);
        // k = 20, dense and lexical weight 1 (the defaults): the fused score is
        // 1 / (20 + dense rank) + lexical coverage / (20 + lexical rank).
        assertThat(top.path("lexicalCoverage").asDouble()).isBetween(0.0, 1.0);
        assertThat(top.path("fusedScore").asDouble())
                .isCloseTo(
                        1.0 / (20 + top.path("denseRank").asInt())
                                + top.path("lexicalCoverage").asDouble() / 21,
                        Offset.offset(1e-9));
        JsonNode unmatched = results.getLast().path("explanation");
        assertThat(unmatched.path("lexicalRank").isNull()).isTrue();
        assertThat(unmatched.path("denseRank").asInt()).isPositive();
        assertThat(results)
                .allSatisfy(m -> assertThat(m.path("score").asDouble())
                        .isEqualTo(m.path("explanation").path("denseScore").asDouble()));
        // Without explain, results carry no explanation.
        assertThat(items(api.get(key, "/memory?userId=ben&query=accordions"))
                        .getFirst()
                        .has("explanation"))
                .isFalse();
    }

    @Test
    void searchNeverReachesAnotherUsersMemoriesEvenByKeyword() {
        String key = api.newTenant();
        userWith(key, "carl");
        String other = api.newTenant();
        userWith(other, "carl");
        api.newSession(key, "dora", null);

        assertThat(items(api.get(key, "/memory?userId=dora&query=Thaddeus&mode=lexical")))
                .isEmpty();
        assertThat(items(api.get(key, "/memory?userId=dora&query=Thaddeus"))).isEmpty();
        List<JsonNode> carls = items(api.get(key, "/memory?userId=carl&query=Thaddeus&limit=100"));
        assertThat(carls).hasSize(DIALOGUE.length);
    }

    @Test
    void aQueryOfOnlyStopWordsOrAnUnknownModeIsHandled() {
        String key = api.newTenant();
        userWith(key, "eve");
        assertThat(items(api.get(key, "/memory?userId=eve&query=the%20of%20a&mode=lexical")))
                .isEmpty();
        assertThat(items(api.get(key, "/memory?userId=eve&query=the%20of%20a"))).isNotEmpty();
        Api.Response badMode = api.get(key, "/memory?userId=eve&query=x&mode=telepathic");
        assertThat(badMode.status()).isEqualTo(400);
        assertThat(badMode.body().path("errors").findValuesAsString("field")).containsExactly("mode");
    }

    /** A user whose history holds eight numbered greetings, then the given turns. */
    private void historyOf(String key, String userId, String greeting, String... then) {
        String session = api.newSession(key, userId, "{\"write\": [\"history\"], \"read\": [\"history\"]}");
        String[] turns = new String[8 + then.length];
        for (int i = 0; i < 8; i++) {
            turns[i] = greeting + i;
        }
        System.arraycopy(then, 0, turns, 8, then.length);
        assertThat(api.importTurns(key, session, turns).status()).isEqualTo(201);
    }
}
