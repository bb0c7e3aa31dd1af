package dev.memoir.common.web;

import static dev.memoir.support.Problems.assertBadField;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.RawHttp;

/** Inputs that once crashed requests with 500: each is a 400 ProblemDetail naming what was wrong. */
class HostileInputTest extends IntegrationTest {

    private static final List<String> INVISIBLE =
            List.of("\u200B", "\uFEFF", "\u00AD", "\u0007\u0001", "\uDB40\uDC41\uDB40\uDC42", "\u200B \u2060\u200D");

    @Test
    void aNulCharacterInAnyJsonStringIsRefusedNamingTheField() {
        String key = api.newTenant();
        String session = api.newSession(key, "nul-user", null);
        String nul = "\"a\\u0000b\"";
        assertBadField(api.send("POST", "/sessions", key, "{\"userId\": " + nul + "}"), "userId");
        assertBadField(api.send("POST", "/admin/tenants", Api.BOOTSTRAP_KEY, "{\"name\": " + nul + "}"), "name");
        assertBadField(
                api.send("POST", "/chat", key, "{\"sessionId\": \"" + session + "\", \"message\": " + nul + "}"),
                "message");
        assertBadField(
                api.send(
                        "POST",
                        "/sessions/" + session + "/turns",
                        key,
                        "{\"turns\": [{\"role\": \"user\", \"content\": " + nul + "}]}"),
                "turns[0].content");
        api.importTurns(key, session, "something to edit");
        String memory = items(api.get(key, "/memory?userId=nul-user"))
                .getFirst()
                .path("id")
                .asString();
        assertBadField(api.send("PATCH", "/memory/" + memory, key, "{\"text\": " + nul + "}"), "text");
        assertBadField(
                api.send(
                        "POST",
                        "/reflection/feedback",
                        key,
                        "{\"turnId\": \"" + UUID.randomUUID() + "\", \"hint\": " + nul + "}"),
                "hint");
        assertBadField(
                api.send(
                        "POST",
                        "/reflection/feedback",
                        key,
                        "{\"turnId\": \"" + UUID.randomUUID() + "\", \"answer\": " + nul + "}"),
                "answer");
        assertBadField(
                api.send("POST", "/chat", key, "{\"sessionId\": \"" + session + "\", \"message\": \"\\ud800 lone\"}"),
                "message");
    }

    @Test
    void textMadeOnlyOfInvisibleCharactersIsRefusedInAChatAndSkippedInAnImport() {
        String key = api.newTenant();
        String session = api.newSession(key, "ghost", null);
        for (String invisible : INVISIBLE) {
            assertBadField(
                    api.send(
                            "POST",
                            "/chat",
                            key,
                            "{\"sessionId\": \"" + session + "\", \"message\": " + Api.quote(invisible) + "}"),
                    "message");
            Api.Response imported = api.send(
                    "POST",
                    "/sessions/" + session + "/turns",
                    key,
                    "{\"turns\": [{\"role\": \"user\", \"content\": " + Api.quote(invisible) + "}]}");
            assertThat(imported.status()).as(imported.raw()).isEqualTo(201);
            assertThat(imported.body().path("turns")).isEmpty();
            assertThat(imported.body().path("skipped").get(0).path("reason").asString())
                    .isEqualTo("it has no visible text");
        }
        assertThat(api.get(key, "/sessions/" + session).body().path("turns")).isEmpty();
    }

    @Test
    void queryParametersThatAreNotTextAreRefusedNamingTheParameter() {
        String key = api.newTenant();
        RawHttp http = new RawHttp(api.port());
        for (String query : List.of(
                "userId=%FF", "userId=%ED%A0%80", "userId=u&query=%C0%AF", "userId=a%00b", "userId=u&query=x%00y")) {
            RawHttp.Response response = http.send("GET", "/memory?" + query, key, null);
            assertThat(response.status()).as(query + " " + response.body()).isEqualTo(400);
            assertThat(response.body()).contains("invalid-request");
        }
        RawHttp.Response erase = http.send("DELETE", "/memory?userId=%FF", key, null);
        assertThat(erase.status()).isEqualTo(400);
    }

    @Test
    void aUserIdIsAcceptedInOneSpellingOnlySoAnEraseCannotMissData() {
        String key = api.newTenant();
        assertBadField(api.send("POST", "/sessions", key, "{\"userId\": \" padded \"}"), "userId");
        assertBadField(api.send("POST", "/sessions", key, "{\"userId\": \"zero\\u200bwidth\"}"), "userId");
        assertBadField(api.get(key, "/memory?userId=%20padded%20"), "userId");
        assertBadField(api.send("DELETE", "/memory?userId=%20padded%20", key, null), "userId");
        assertBadField(api.get(key, "/sessions?userId=%20padded%20"), "userId");

        String session = api.newSession(key, "padded", null);
        api.importTurns(key, session, "remember me");
        Api.Response erased = api.send("DELETE", "/memory?userId=padded", key, null);
        assertThat(erased.status()).isEqualTo(200);
        assertThat(items(api.get(key, "/memory?userId=padded"))).isEmpty();
    }

    @Test
    void theErrorPathAskedDirectlyIsAProblemDetailNotA500() {
        RawHttp.Response direct = new RawHttp(api.port()).send("GET", "/error", Map.of(), null);
        assertThat(direct.status()).isEqualTo(404);
        assertThat(direct.header("Content-Type")).contains("application/problem+json");
        assertThat(direct.body()).contains("\"code\":\"not-found\"");
    }
}
