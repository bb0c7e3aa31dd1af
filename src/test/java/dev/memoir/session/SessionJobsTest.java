package dev.memoir.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** A client can see whether a closed session's memory has been written, and why not. */
class SessionJobsTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private JsonNode job(String key, String session, String task) {
        List<JsonNode> jobs = items(api.get(key, "/sessions/" + session), "jobs");
        return jobs.stream()
                .filter(j -> j.path("task").asString().equals(task))
                .findFirst()
                .orElse(null);
    }

    private static List<JsonNode> items(Api.Response response, String field) {
        List<JsonNode> found = new ArrayList<>();
        response.body().path(field).forEach(found::add);
        return found;
    }

    @Test
    void aClosedSessionListsItsSummaryJobUntilItIsDone() {
        String key = api.newTenant();
        String session = api.newSession(key, "ines", null);
        api.importTurns(key, session, "I keep bees on the roof " + tag, "Lovely.");

        assertThat(items(api.get(key, "/sessions/" + session), "jobs")).isEmpty();
        api.close(key, session);

        JsonNode done = eventually()
                .until(
                        () -> job(key, session, "session-summary"),
                        j -> j != null && j.path("state").asString().equals("done"));
        assertThat(done.path("id").asString()).isEqualTo(session);
        assertThat(done.path("failures").asInt()).isZero();
        assertThat(done.path("finishedAt").isMissingNode()).isFalse();
        assertThat(done.path("lastError").isMissingNode()).isTrue();
    }

    @Test
    void aFailingJobShowsItsLastErrorThenFailedAndIsDoneAfterAnOperatorRetry() {
        String key = api.newTenant();
        AtomicBoolean modelDown = new AtomicBoolean(true);
        onModelCall(
                call -> call.is(Step.SESSION_SUMMARY) && call.mentions(tag),
                call -> modelDown.get() ? Answer.error(500) : Answer.sessionSummary("Ines keeps bees."));
        String session = api.newSession(key, "ines", null);
        api.importTurns(key, session, "I keep bees on the roof " + tag, "Lovely.");
        api.close(key, session);

        JsonNode retrying = eventually()
                .until(
                        () -> job(key, session, "session-summary"),
                        j -> j != null && j.path("failures").asInt() >= 1);
        assertThat(retrying.path("lastError").asString()).contains("500");

        JsonNode failed = eventually()
                .until(
                        () -> job(key, session, "session-summary"),
                        j -> j.path("state").asString().equals("failed"));
        assertThat(failed.path("failures").asInt()).isEqualTo(4);
        assertThat(failed.path("lastError").asString()).isNotBlank();

        modelDown.set(false);
        assertThat(api.send("POST", "/admin/jobs/failed/session-summary/" + session + "/retry", Api.BOOTSTRAP_KEY, null)
                        .status())
                .isEqualTo(202);
        eventually()
                .until(
                        () -> job(key, session, "session-summary"),
                        j -> j.path("state").asString().equals("done"));
    }

    @Test
    void anotherTenantSeesNoneOfTheSessionOrItsJobs() {
        String key = api.newTenant();
        String session = api.newSession(key, "ines", null);
        api.close(key, session);

        Api.Response other = api.get(api.newTenant(), "/sessions/" + session);

        assertThat(other.status()).isEqualTo(404);
        assertThat(other.raw()).doesNotContain("session-summary");
    }
}
