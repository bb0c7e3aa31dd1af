package dev.memoir.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.store.Vectors;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Prose;

import tools.jackson.databind.JsonNode;

/**
 * A memory longer than one passage (memoir.embedding.passage-tokens, 256) is also embedded passage by passage, and
 * dense search scores it by its best passage: what a long answer says at its end is found by meaning as well as
 * what it says first.
 */
class PassageSearchTest extends IntegrationTest {

    private static final String DETAIL = "By the way, the spare key to the allotment shed is hidden under the blue "
            + "ceramic frog beside the rhubarb.";

    @Autowired
    JdbcClient jdbc;

    private final String user = "long-" + UUID.randomUUID().toString().substring(0, 8);

    /** An assistant turn of about 1,500 words of travel talk, whose last sentence is the detail. */
    private static String longAnswer() {
        return Prose.words(3, 1500) + " " + DETAIL;
    }

    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    @Test
    void aDetailAtTheEndOfALongTurnIsFoundByMeaningAndTheExplanationNamesItsPassage() {
        String key = api.newTenant();
        String session = api.newSession(key, user, null);
        String answer = longAnswer();
        api.importTurns(key, session, "Can you remind me of everything about the garden and the trips?", answer);
        for (int i = 0; i < 6; i++) {
            api.importTurns(key, session, Prose.words(i, 60), "Noted, thanks for telling me about it.");
        }

        // The detail itself, reworded: the passage that holds it is far nearer than the long turn as a whole.
        String question = "The spare key of the allotment shed lies under the blue ceramic frog next to the rhubarb.";
        List<JsonNode> found = items(api.get(
                key,
                "/memory?userId=" + user + "&kind=history&mode=dense&explain=true" + "&limit=3&query="
                        + encoded(question)));

        assertThat(found.getFirst().path("text").asString()).isEqualTo("Assistant: " + answer);
        JsonNode passage = found.getFirst().path("explanation").path("densePassage");
        assertThat(passage.isObject()).as(found.getFirst().toString()).isTrue();
        int start = passage.path("start").asInt();
        int end = passage.path("end").asInt();
        String memoryText = "Assistant: " + answer;
        assertThat(passage.path("position").asInt())
                .isGreaterThan(1)
                .as("the nearest passage by an exact scan: " + distances(found.getFirst(), question))
                .isEqualTo(nearestPassage(found.getFirst(), question));
        assertThat(memoryText.substring(start, end))
                .as(passage + " of " + memoryText.length() + ": " + distances(found.getFirst(), question))
                .contains("ceramic frog");
        double score = found.getFirst().path("score").asDouble();
        assertThat(score)
                .isEqualTo(
                        found.getFirst().path("explanation").path("denseScore").asDouble())
                .isGreaterThan(wholeSimilarity(found.getFirst(), question));
    }

    @Test
    void aMemoryWithinOnePassageHasNoneAndAnEditReplacesTheLongOnesPassages() {
        String key = api.newTenant();
        String session = api.newSession(key, user, null);
        api.importTurns(key, session, "Short and sweet.", longAnswer());
        List<JsonNode> history = ofKind(api.get(key, "/memory?userId=" + user), "history");
        JsonNode shortOne = history.stream()
                .filter(m -> m.path("text").asString().startsWith("User:"))
                .findFirst()
                .orElseThrow();
        JsonNode longOne = history.stream()
                .filter(m -> m.path("text").asString().startsWith("Assistant:"))
                .findFirst()
                .orElseThrow();
        assertThat(passagesOf(shortOne)).isZero();
        int before = passagesOf(longOne);
        assertThat(before).isGreaterThan(4);

        assertThat(api.send(
                                "PATCH",
                                "/memory/" + longOne.path("id").asString(),
                                key,
                                "{\"text\": \"Assistant: The key is with the neighbour now.\"}")
                        .status())
                .isEqualTo(200);

        assertThat(passagesOf(longOne)).isZero();
        assertThat(api.send("DELETE", "/memory?userId=" + user, key, null).status())
                .isEqualTo(200);
        assertThat(jdbc.sql("select count(*) from memory_passages where user_id = ?")
                        .param(user)
                        .query(Integer.class)
                        .single())
                .isZero();
    }

    @Autowired
    TextEmbedder embedder;

    private int nearestPassage(JsonNode memory, String question) {
        return jdbc.sql("select position from memory_passages where memory_id = ? and user_id = ? "
                        + "order by embedding <=> cast(? as vector) limit 1")
                .param(UUID.fromString(memory.path("id").asString()))
                .param(user)
                .param(Vectors.literal(embedder.embedQuery(question)))
                .query(Integer.class)
                .single();
    }

    /** The cosine similarity of the question to the memory's own vector, which stands for all of it. */
    private double wholeSimilarity(JsonNode memory, String question) {
        return jdbc.sql("select 1 - (embedding <=> cast(? as vector)) from memory_records where id = ? and user_id = ?")
                .param(Vectors.literal(embedder.embedQuery(question)))
                .param(UUID.fromString(memory.path("id").asString()))
                .param(user)
                .query(Double.class)
                .single();
    }

    private List<String> distances(JsonNode memory, String question) {
        return jdbc.sql("select position || ':' || start_char || '-' || end_char || '=' || "
                        + "round((embedding <=> cast(? as vector))::numeric, 4) from memory_passages "
                        + "where memory_id = ? and user_id = ? order by position")
                .param(Vectors.literal(embedder.embedQuery(question)))
                .param(UUID.fromString(memory.path("id").asString()))
                .param(user)
                .query(String.class)
                .list();
    }

    private int passagesOf(JsonNode memory) {
        return jdbc.sql("select count(*) from memory_passages where memory_id = ? and user_id = ?")
                .param(UUID.fromString(memory.path("id").asString()))
                .param(user)
                .query(Integer.class)
                .single();
    }
}
