package dev.memoir.common.web;

import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

class ApiErrorsTest extends IntegrationTest {

    @Test
    void aMissingOrWrongKeyIs401() {
        assertProblem(api.send("GET", "/sessions?userId=a", null, null), 401, "unauthorized");
        assertProblem(api.send("GET", "/sessions?userId=a", "mk_not-a-real-key", null), 401, "unauthorized");
    }

    @Test
    void adminEndpointsNeedTheBootstrapKeyNotATenantKey() {
        String key = api.newTenant();
        assertProblem(api.send("POST", "/admin/tenants", key, "{\"name\": \"x\"}"), 401, "unauthorized");
        Api.Response created = api.send("POST", "/admin/tenants", Api.BOOTSTRAP_KEY, "{\"name\": \"acme\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text("apiKey")).startsWith("mk_");
        assertThat(created.text("name")).isEqualTo("acme");
        assertThat(api.get(created.text("apiKey"), "/sessions?userId=a").status())
                .isEqualTo(200);
    }

    @Test
    void unknownIdsAre404() {
        String key = api.newTenant();
        assertProblem(api.get(key, "/sessions/" + UUID.randomUUID()), 404, "not-found");
        assertProblem(api.get(key, "/memory/" + UUID.randomUUID()), 404, "not-found");
        assertProblem(api.chat(key, UUID.randomUUID().toString(), "hi"), 404, "not-found");
        assertProblem(api.send("DELETE", "/memory/" + UUID.randomUUID(), key, null), 404, "not-found");
    }

    @Test
    void malformedJsonIs400() {
        String key = api.newTenant();
        assertProblem(api.send("POST", "/sessions", key, "{\"userId\": "), 400, "malformed-body");
    }

    @Test
    void invalidFieldsAre400NamingTheField() {
        String key = api.newTenant();
        Api.Response blankUser = api.send("POST", "/sessions", key, "{\"userId\": \"  \"}");
        assertProblem(blankUser, 400, "invalid-request");
        assertThat(blankUser.body().path("errors").findValuesAsString("field")).containsExactly("userId");

        Api.Response badKind =
                api.send("POST", "/sessions", key, "{\"userId\": \"u\", \"memory\": {\"write\": [\"telepathy\"]}}");
        assertProblem(badKind, 400, "invalid-request");
        assertThat(badKind.body().path("errors").findValuesAsString("field")).containsExactly("memory.write[0]");
        assertThat(badKind.text("detail")).contains("telepathy").contains("conditional");

        Api.Response badTopK =
                api.send("POST", "/sessions", key, "{\"userId\": \"u\", \"memory\": {\"reflectionRounds\": 9}}");
        assertProblem(badTopK, 400, "invalid-request");
        assertThat(badTopK.body().path("errors").findValuesAsString("field"))
                .containsExactly("memory.reflectionRounds");

        String session = api.newSession(key, "u", null);
        Api.Response blankMessage = api.chat(key, session, " ");
        assertProblem(blankMessage, 400, "invalid-request");
        assertThat(blankMessage.body().path("errors").findValuesAsString("field"))
                .containsExactly("message");

        Api.Response badRole = api.send(
                "POST",
                "/sessions/" + session + "/turns",
                key,
                "{\"turns\": [{\"role\": \"narrator\", \"content\": \"x\"}]}");
        assertProblem(badRole, 400, "invalid-request");
        assertThat(badRole.body().path("errors").findValuesAsString("field")).containsExactly("turns[0].role");

        assertProblem(api.get(key, "/memory"), 400, "invalid-request");
        assertProblem(api.get(key, "/memory?userId=u&kind=telepathy"), 400, "invalid-request");
        assertProblem(api.get(key, "/memory?userId=u&limit=0"), 400, "invalid-request");
        assertProblem(api.get(key, "/sessions/not-a-uuid"), 400, "invalid-request");
    }

    @Test
    void springsOwnRequestErrorsCarryOurCodeToo() {
        String key = api.newTenant();
        assertProblem(api.send("DELETE", "/memory", key, null), 400, "invalid-request");
        assertProblem(api.send("PUT", "/chat", key, "{}"), 405, "method-not-allowed");
        assertProblem(api.get(key, "/no-such-endpoint"), 404, "not-found");
    }

    @Test
    void actuatorMetricsNeedTheBootstrapKeyWhileHealthIsOpen() {
        String key = api.newTenant();
        assertThat(api.get(null, "/actuator/health").status()).isEqualTo(200);
        assertProblem(api.get(key, "/actuator/metrics"), 401, "unauthorized");
        assertThat(api.get(Api.BOOTSTRAP_KEY, "/actuator/metrics").status()).isEqualTo(200);
    }

    @Test
    void aBodyOverTheConfiguredSizeIs413() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        String huge = "x".repeat(70 * 1024);
        assertProblem(api.chat(key, session, huge), 413, "payload-too-large");
    }

    @Test
    void chatOnAClosedSessionIs409AndClosingTwiceIsHarmless() {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        assertThat(api.close(key, session).status()).isEqualTo(202);
        assertThat(api.close(key, session).status()).isEqualTo(202);
        assertProblem(api.chat(key, session, "hello?"), 409, "session-closed");
        assertProblem(api.importTurns(key, session, "late", "turns"), 409, "session-closed");
        assertThat(api.get(key, "/sessions/" + session).text("status")).isEqualTo("closed");
    }
}
