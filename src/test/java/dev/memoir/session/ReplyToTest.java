package dev.memoir.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * Every reply names the user turn it answers: a chat reply the message it answered, an imported reply the user
 * turn right before it (in the same import or stored earlier), and the back-fill of V26 gives replies imported
 * before that version the same.
 */
class ReplyToTest extends IntegrationTest {

    private static final String BACKFILL = "db/migration/V26__backfill_reply_to_of_imported_replies.sql";

    @Autowired
    JdbcClient jdbc;

    private Api.Response importOne(String key, String session, String role, String content) {
        return api.send(
                "POST",
                "/sessions/" + session + "/turns",
                key,
                Json.object("turns", List.of(Json.fields("role", role, "content", content))));
    }

    private static String id(Api.Response imported, int index) {
        return imported.body().path("turns").get(index).path("id").asString();
    }

    private static String replyTo(JsonNode turn) {
        return turn.path("replyTo").isMissingNode() || turn.path("replyTo").isNull()
                ? null
                : turn.path("replyTo").asString();
    }

    private List<String> replyToOfEachTurn(String key, String session) {
        return api.get(key, "/sessions/" + session)
                .body()
                .path("turns")
                .valueStream()
                .map(ReplyToTest::replyTo)
                .toList();
    }

    @Test
    void anImportedReplyNamesTheUserTurnRightBeforeItAndTheBackfillGivesItTheSame() throws IOException {
        String key = api.newTenant();
        String session = api.newSession(key, "rita", null);
        Api.Response first = api.importTurns(key, session, "Hi", "Hello.");
        Api.Response afterAReply = importOne(key, session, "assistant", "Anything else?");
        Api.Response question = importOne(key, session, "user", "Where is Porto?");
        Api.Response answer = importOne(key, session, "assistant", "In Portugal.");
        assertThat(answer.status()).as(answer.raw()).isEqualTo(201);

        assertThat(replyTo(first.body().path("turns").get(1))).isEqualTo(id(first, 0));
        assertThat(replyTo(answer.body().path("turns").get(0))).isEqualTo(id(question, 0));
        assertThat(replyToOfEachTurn(key, session)).containsExactly(null, id(first, 0), null, null, id(question, 0));

        // As stored before V26: imported replies named nothing.
        jdbc.sql("update turns set reply_to = null where session_id = ?")
                .param(UUID.fromString(session))
                .update();
        try (InputStream sql = getClass().getClassLoader().getResourceAsStream(BACKFILL)) {
            jdbc.sql(new String(sql.readAllBytes(), StandardCharsets.UTF_8)).update();
        }

        assertThat(replyToOfEachTurn(key, session)).containsExactly(null, id(first, 0), null, null, id(question, 0));
        assertThat(api.get(key, "/reflection/replies/" + id(answer, 0)).status())
                .isEqualTo(200);
        assertThat(api.get(key, "/reflection/replies/" + id(afterAReply, 0)).status())
                .isEqualTo(400);
    }

    @Test
    void aChatReplyNamesTheMessageItAnswered() {
        String key = api.newTenant();
        String session = api.newSession(key, "sam", null);

        Api.Response reply = api.chat(key, session, "Hello there " + UUID.randomUUID());

        JsonNode turns = api.get(key, "/sessions/" + session).body().path("turns");
        assertThat(replyTo(turns.get(1))).isEqualTo(reply.text("userTurnId"));
        assertThat(turns.get(1).path("id").asString()).isEqualTo(reply.text("turnId"));
    }
}
