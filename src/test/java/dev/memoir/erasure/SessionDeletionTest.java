package dev.memoir.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class SessionDeletionTest extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    private int jobRunsOf(String session) {
        return jdbc.sql("select count(*) from job_runs where session_id = ?")
                .param(UUID.fromString(session))
                .query(Integer.class)
                .single();
    }

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private String closedSession(String key, String words) {
        String session = api.newSession(key, "omar", null);
        api.importTurns(key, session, words + " " + tag, "Noted.");
        api.close(key, session);
        eventually()
                .until(
                        () -> api.get(key, "/sessions/" + session)
                                .body()
                                .path("jobs")
                                .toString(),
                        jobs -> jobs.contains("\"done\""));
        return session;
    }

    private List<String> memorySessions(String key) {
        return items(api.get(key, "/memory?userId=omar&limit=100")).stream()
                .map(m -> m.path("provenance").path("sessionId").asString())
                .toList();
    }

    @Test
    void deletingASessionRemovesItsTurnsAndTheMemoriesWrittenFromItAndNothingOfAnotherSession() {
        String key = api.newTenant();
        String kept = closedSession(key, "I sail a small boat called Petrel");
        String deleted = closedSession(key, "My sister lives in Valparaiso");
        assertThat(memorySessions(key)).contains(kept, deleted);

        Api.Response response = api.send("DELETE", "/sessions/" + deleted, key, null);

        assertThat(response.status()).isEqualTo(200);
        JsonNode counts = response.body();
        assertThat(counts.path("sessionId").asString()).isEqualTo(deleted);
        assertThat(counts.path("turns").asInt()).isEqualTo(2);
        // Two history records and the session's summary.
        assertThat(counts.path("memories").asInt()).isEqualTo(3);
        assertThat(api.get(key, "/sessions/" + deleted).status()).isEqualTo(404);
        assertThat(memorySessions(key)).doesNotContain(deleted).contains(kept);
        assertThat(items(api.get(key, "/memory?userId=omar&query=Valparaiso&mode=lexical")))
                .isEmpty();
        assertThat(items(api.get(key, "/memory?userId=omar&query=Petrel&mode=lexical")))
                .isNotEmpty();
        assertThat(jobRunsOf(deleted)).as("the deleted session's job outcomes").isZero();
        assertThat(jobRunsOf(kept)).as("the other session's").isEqualTo(1);
        assertThat(api.send("DELETE", "/sessions/" + deleted, key, null).status())
                .isEqualTo(404);
    }

    @Test
    void anotherTenantsKeyCannotDeleteASession() {
        String key = api.newTenant();
        String session = closedSession(key, "I sail a small boat called Petrel");

        Api.Response response = api.send("DELETE", "/sessions/" + session, api.newTenant(), null);

        assertThat(response.status()).isEqualTo(404);
        assertThat(api.get(key, "/sessions/" + session).status()).isEqualTo(200);
        assertThat(memorySessions(key)).contains(session);
    }

    @Test
    void anUnknownOrMalformedSessionIdIsAClearError() {
        String key = api.newTenant();

        assertThat(api.send("DELETE", "/sessions/" + UUID.randomUUID(), key, null)
                        .status())
                .isEqualTo(404);
        assertThat(api.send("DELETE", "/sessions/not-a-uuid", key, null).status())
                .isEqualTo(400);
    }
}
