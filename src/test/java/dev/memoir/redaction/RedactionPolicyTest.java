package dev.memoir.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * A tenant's own redaction policy in a started service: e-mail masked, phone refused (422, nothing stored), an API
 * key kept when the tenant turns secrets off, while another tenant keeps the deployment's defaults; the model's own
 * reply is masked, never refused; bad policies answer 400 naming what was wrong.
 */
class RedactionPolicyTest extends IntegrationTest {

    private static final String EMAIL = "ada.lovelace@analytical.example.org";
    private static final String PHONE = "+44 20 7946 0958";
    private static final String IBAN = "GB82 WEST 1234 5698 7654 32";
    // Not SecretRedactionTest's key: this test stores its own verbatim (a tenant that turned masking off).
    private static final String KEY = "sk-proj-Yw3NbR8tQe5LmZ2xVc7HaK1sPd9J";

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private Api.Response policy(String key, String body) {
        return api.send("PUT", "/redaction/policy", key, body);
    }

    private int rowsHolding(UUID tenant, String text) {
        int rows = 0;
        for (String table : List.of(
                "turns",
                "memory_records",
                "memory_revisions",
                "side_messages",
                "webhook_deliveries",
                "audit_entries")) {
            rows += jdbc.sql("select count(*) from " + table + " t where t.tenant_id = :tenant and t::text like :s")
                    .param("tenant", tenant)
                    .param("s", "%" + text + "%")
                    .query(Integer.class)
                    .single();
        }
        return rows;
    }

    private static String action(JsonNode view, String kind) {
        for (JsonNode c : view.path("classes")) {
            if (c.path("class").asString().equals(kind)) {
                return c.path("action").asString() + "/" + c.path("source").asString();
            }
        }
        return null;
    }

    @Test
    void aTenantsPolicyMasksEmailAndRefusesPhoneNumbersWhereverTextArrives() {
        Api.Response created = api.createTenant("redaction-" + tag);
        String key = created.text("apiKey");
        UUID tenant = UUID.fromString(created.text("id"));
        String user = "ada-" + tag;
        Api.Response set = policy(key, Json.object("email", "mask", "phone", "refuse", "iban", "mask"));
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(action(set.body(), "email")).isEqualTo("mask/tenant");
        assertThat(action(set.body(), "phone")).isEqualTo("refuse/tenant");
        assertThat(action(set.body(), "api-key")).isEqualTo("mask/default");
        String session = api.newSession(key, user, null);
        Api.Response hook = api.send(
                "POST",
                "/webhooks",
                key,
                Json.object(
                        "url",
                        "http://127.0.0.1:9/hook",
                        "events",
                        List.of("memory.created", "turns.recorded"),
                        "includeText",
                        true));
        assertThat(hook.status()).as(hook.raw()).isEqualTo(201);

        Api.Response chat = api.chat(key, session, "Mail me at " + EMAIL + ", pay " + IBAN + " " + tag);
        api.addMemory(key, user, "Ada's mail is " + EMAIL);
        Api.Response refusedChat = api.chat(key, session, tag + ": or call " + PHONE + ".");
        Api.Response refusedImport = api.importTurns(key, session, "My number is " + PHONE, "Noted.");
        Api.Response refusedMemory = api.addMemory(key, user, "Ada's phone is " + PHONE);
        Api.Response refusedContext =
                api.send("POST", "/context", key, Json.object("userId", user, "query", "who has " + PHONE + "?"));
        Api.Response refusedConversation = api.send(
                "POST",
                "/conversations/ada:" + tag + "/messages",
                key,
                Json.write(Map.of(
                        "userId", user, "messages", List.of(Map.of("role", "user", "content", "ring " + PHONE)))));

        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        for (Api.Response refused :
                List.of(refusedChat, refusedImport, refusedMemory, refusedContext, refusedConversation)) {
            assertThat(refused.status()).as(refused.raw()).isEqualTo(422);
            assertThat(refused.text("code")).isEqualTo("sensitive-data-refused");
            assertThat(refused.body().path("classes").toString()).isEqualTo("[\"phone\"]");
            assertThat(refused.raw()).doesNotContain("7946");
        }
        String turns = api.get(key, "/sessions/" + session).raw();
        assertThat(turns).contains("[email #").contains("[iban #").doesNotContain(EMAIL);
        assertThat(api.get(key, "/sessions/" + session).body().path("turns").size())
                .as("the refused chat and import stored no turn")
                .isEqualTo(2);
        assertThat(rowsHolding(tenant, EMAIL)).isZero();
        assertThat(rowsHolding(tenant, "7946 0958")).isZero();
        assertThat(rowsHolding(tenant, IBAN)).isZero();
        assertThat(fake.calls(call -> call.mentions(tag)
                        && (call.body().toString().contains(EMAIL)
                                || call.body().toString().contains("7946"))))
                .isEmpty();
        String export = api.sendWithHeaders("GET", "/users/" + user + "/export", key, null)
                .body();
        assertThat(export).doesNotContain(EMAIL).doesNotContain(PHONE).contains("[email #");
        List<String> policyChanges = api.get(key, "/audit?action=redaction.policy-set")
                .body()
                .path("entries")
                .valueStream()
                .map(e -> e.path("details").toString())
                .toList();
        assertThat(policyChanges).singleElement().asString().contains("\"phone\":\"refuse\"");
    }

    @Test
    void aTenantThatTurnsSecretsOffKeepsThemWhileOthersStillMaskThem() {
        String off = api.newTenant();
        String other = api.newTenant();
        assertThat(policy(off, Json.object("api-key", "off")).status()).isEqualTo(200);

        Api.Response kept = api.addMemory(off, "bo-" + tag, "Staging key " + KEY);
        Api.Response masked = api.addMemory(other, "bo-" + tag, "Staging key " + KEY);

        assertThat(kept.text("text")).contains(KEY);
        assertThat(masked.text("text")).doesNotContain(KEY).contains("[api-key #");
        Api.Response reset = api.send("DELETE", "/redaction/policy", off, null);
        assertThat(reset.status()).as(reset.raw()).isEqualTo(200);
        assertThat(action(reset.body(), "api-key")).isEqualTo("mask/default");
        assertThat(api.addMemory(off, "bo-" + tag, "Again " + KEY).text("text")).doesNotContain(KEY);
    }

    @Test
    void aNullActionGivesAClassBackToTheDefault() {
        String key = api.newTenant();
        policy(key, Json.object("email", "refuse"));
        assertThat(api.addMemory(key, "cy-" + tag, "cy@example.org").status()).isEqualTo(422);

        Api.Response back = policy(key, "{\"email\": null}");

        assertThat(action(back.body(), "email")).isEqualTo("off/default");
        assertThat(api.addMemory(key, "cy-" + tag, "cy@example.org").text("text"))
                .isEqualTo("cy@example.org");
    }

    @Test
    void theModelsReplyIsMaskedNotRefused() {
        String key = api.newTenant();
        policy(key, Json.object("email", "refuse"));
        String session = api.newSession(key, "di-" + tag, null);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json(
                        "{\"reply\": \"Write to help@memoir.example.com for that.\", \"remember\": false}"));

        Api.Response chat = api.chat(key, session, "Who do I ask? " + tag);

        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        String stored = api.get(key, "/sessions/" + session).raw();
        assertThat(stored).contains("[email #").doesNotContain("help@memoir.example.com");
    }

    @Test
    void anUnknownClassOrActionOrAnEmptyPolicyIsA400NamingIt() {
        String key = api.newTenant();
        Api.Response unknownClass = policy(key, Json.object("fax", "mask"));
        Api.Response unknownAction = policy(key, Json.object("email", "shred"));
        Api.Response empty = policy(key, "{}");

        assertThat(unknownClass.status()).isEqualTo(400);
        assertThat(unknownClass.raw()).contains("fax").contains("api-key");
        assertThat(unknownAction.status()).isEqualTo(400);
        assertThat(unknownAction.raw()).contains("email").contains("refuse");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(action(api.get(key, "/redaction/policy").body(), "email")).isEqualTo("off/default");
    }
}
