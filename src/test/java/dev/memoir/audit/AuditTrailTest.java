package dev.memoir.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
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
 * The audit trail in a started service: every change and what each reply and context request was shown is recorded
 * with the key that did it and no memory text; the seal job chains the entries on its own; an edited, re-hashed or
 * removed entry is found by verify; an erasure answers a receipt that names its entry, and leaves only hashed
 * entries behind.
 */
class AuditTrailTest extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    AuditPurge purge;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private record Tenant(String key, UUID id) {}

    private Tenant tenant() {
        Api.Response created = api.createTenant("audit-" + UUID.randomUUID());
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return new Tenant(created.text("apiKey"), UUID.fromString(created.text("id")));
    }

    private List<JsonNode> trail(Tenant tenant, String query) {
        List<JsonNode> entries = new ArrayList<>();
        String cursor = null;
        do {
            Api.Response page =
                    api.get(tenant.key(), "/audit?limit=200" + query + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.raw()).isEqualTo(200);
            page.body().path("entries").forEach(entries::add);
            cursor = page.body().path("nextCursor").isNull() ? null : page.text("nextCursor");
        } while (cursor != null);
        return entries;
    }

    private static List<String> actions(List<JsonNode> entries) {
        return entries.stream().map(e -> e.path("action").asString()).toList();
    }

    private static JsonNode only(List<JsonNode> entries, String action) {
        List<JsonNode> found = entries.stream()
                .filter(e -> e.path("action").asString().equals(action))
                .toList();
        assertThat(found).as(action).hasSize(1);
        return found.getFirst();
    }

    private String keyId(Tenant tenant) {
        Api.Response keys = api.send("GET", "/admin/tenants/" + tenant.id() + "/keys", Api.BOOTSTRAP_KEY, null);
        return keys.body().path("items").get(0).path("id").asString();
    }

    private int rowsNaming(Tenant tenant, String text) {
        return jdbc.sql("""
                        select count(*) from audit_entries
                        where tenant_id = :tenant
                          and (actor || action || coalesce(user_hash, '') || details) like '%' || :text || '%'""")
                .param("tenant", tenant.id())
                .param("text", text)
                .query(Integer.class)
                .single();
    }

    private JsonNode verify(Tenant tenant) {
        Api.Response verified = api.get(tenant.key(), "/audit/verify");
        assertThat(verified.status()).as(verified.raw()).isEqualTo(200);
        return verified.body();
    }

    @Test
    void everyChangeAndWhatEachReplyAndContextWasShownIsRecordedWithTheKeyThatDidItAndNoMemoryText() {
        Tenant tenant = tenant();
        String user = "ada-" + tag;
        String secretWords = "heron-" + tag;
        String memoryId = api.addFact(tenant.key(), user, "Ada keeps a pet " + secretWords + " named Sol");
        String session = api.newSession(tenant.key(), user, null);
        Api.Response reply = api.chat(tenant.key(), session, "What pet do I keep? " + secretWords);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        Api.Response context =
                api.send("POST", "/context", tenant.key(), Json.object("userId", user, "query", "pet " + secretWords));
        assertThat(context.status()).as(context.raw()).isEqualTo(200);
        HttpResponse<String> export = api.sendWithHeaders("GET", "/users/" + user + "/export", tenant.key(), null);
        assertThat(export.statusCode()).isEqualTo(200);

        List<JsonNode> entries = trail(tenant, "&userId=" + user);

        assertThat(actions(entries))
                .contains("memory.created", "turns.recorded", "reply.shown", "context.shown", "user.exported");
        assertThat(only(entries, "memory.created").path("subjects").toString()).contains(memoryId);
        JsonNode shown = only(entries, "reply.shown");
        assertThat(shown.path("details").path("replyTurnId").asString()).isEqualTo(reply.text("turnId"));
        JsonNode trace = api.get(tenant.key(), "/reflection/replies/" + reply.text("turnId"))
                .body();
        List<String> given = new ArrayList<>();
        trace.path("memories").forEach(m -> given.add(m.path("memoryId").asString()));
        List<String> subjects = new ArrayList<>();
        shown.path("subjects").forEach(s -> subjects.add(s.asString()));
        assertThat(subjects)
                .as("what the reply was shown, as its trace")
                .isEqualTo(given)
                .contains(memoryId);
        assertThat(only(entries, "context.shown").path("subjects").toString()).contains(memoryId);
        assertThat(entries)
                .allSatisfy(e -> assertThat(e.path("actor").asString()).isEqualTo("key:" + keyId(tenant)));
        assertThat(entries)
                .allSatisfy(e ->
                        assertThat(e.path("userHash").asString()).hasSize(32).isNotEqualTo(user));
        assertThat(rowsNaming(tenant, secretWords))
                .as("rows holding memory text")
                .isZero();
        assertThat(rowsNaming(tenant, user)).as("rows holding the user id").isZero();
        assertThat(trail(tenant, "&userId=someone-else-" + tag)).isEmpty();
    }

    @Test
    void theSealJobChainsEntriesInTheStartedServiceWithoutAnyRead() {
        Tenant tenant = tenant();
        api.addFact(tenant.key(), "bo-" + tag, "Bo rows on Tuesdays");

        eventually()
                .until(
                        () -> jdbc.sql("select count(*) from audit_entries where tenant_id = :t and seq is null")
                                .param("t", tenant.id())
                                .query(Integer.class)
                                .single(),
                        unsealed -> unsealed == 0);
        assertThat(jdbc.sql("select last_seq from audit_chains where tenant_id = :t")
                        .param("t", tenant.id())
                        .query(Long.class)
                        .single())
                .isPositive();
    }

    /** Entries made at once and by nothing else (no job follows them): the operator setting retention. */
    private void operatorEntries(Tenant tenant, int count) {
        for (int i = 1; i <= count; i++) {
            Api.Response set = api.send(
                    "PUT",
                    "/admin/tenants/" + tenant.id() + "/retention/history",
                    Api.BOOTSTRAP_KEY,
                    Json.object("keepFor", "P" + i + "D"));
            assertThat(set.status()).as(set.raw()).isEqualTo(200);
        }
    }

    @Test
    void anEditedRehashedOrRemovedEntryIsFoundByVerify() {
        Tenant tenant = tenant();
        operatorEntries(tenant, 3);
        JsonNode intact = verify(tenant);
        assertThat(intact.path("intact").asBoolean()).as(intact.toString()).isTrue();
        assertThat(intact.path("checked").asLong())
                .as("the first key and three settings")
                .isEqualTo(4);
        assertThat(intact.path("headHash").asString()).hasSize(64);

        // An edited field.
        String original = details(tenant, 2);
        setDetails(tenant, 2, original.replace("PT24H", "PT25H"));
        JsonNode edited = verify(tenant);
        assertThat(edited.path("intact").asBoolean()).isFalse();
        assertThat(edited.path("fault").path("seq").asLong()).isEqualTo(2);
        assertThat(edited.path("fault").path("reason").asString()).isEqualTo("content-changed");
        setDetails(tenant, 2, original);
        assertThat(verify(tenant).path("intact").asBoolean()).isTrue();

        // An edited content hash: it no longer matches the fields.
        jdbc.sql("update audit_entries set content_hash = sha256(content_hash) where tenant_id = :t and seq = 3")
                .param("t", tenant.id())
                .update();
        JsonNode rehashed = verify(tenant);
        assertThat(rehashed.path("intact").asBoolean()).isFalse();
        assertThat(rehashed.path("fault").path("seq").asLong()).isEqualTo(3);
        assertThat(rehashed.path("fault").path("reason").asString()).isEqualTo("content-changed");
        jdbc.sql("update audit_entries set content_hash = :h where tenant_id = :t and seq = 3")
                .param("h", contentHash(tenant, 3))
                .param("t", tenant.id())
                .update();
        // An edited chain hash: the entry is as written, but its link is not the one its place makes.
        jdbc.sql("update audit_entries set hash = sha256(hash) where tenant_id = :t and seq = 3")
                .param("t", tenant.id())
                .update();
        JsonNode relinked = verify(tenant);
        assertThat(relinked.path("fault").path("seq").asLong()).isEqualTo(3);
        assertThat(relinked.path("fault").path("reason").asString()).isEqualTo("link-broken");

        // A removed entry, and the operator sees the same.
        jdbc.sql("delete from audit_entries where tenant_id = :t and seq = 3")
                .param("t", tenant.id())
                .update();
        Api.Response operator =
                api.send("GET", "/admin/tenants/" + tenant.id() + "/audit/verify", Api.BOOTSTRAP_KEY, null);
        assertThat(operator.status()).as(operator.raw()).isEqualTo(200);
        assertThat(operator.body().path("intact").asBoolean()).isFalse();
        assertThat(operator.body().path("fault").path("reason").asString()).isEqualTo("seq-gap");

        // The last entry removed: the chain still links, but no longer reaches its head.
        Tenant other = tenant();
        operatorEntries(other, 1);
        assertThat(verify(other).path("intact").asBoolean()).isTrue();
        jdbc.sql("delete from audit_entries where tenant_id = :t and seq = 2")
                .param("t", other.id())
                .update();
        assertThat(verify(other).path("fault").path("reason").asString()).isEqualTo("head-mismatch");
    }

    // The content hash as the service computes it from the row's fields, to put an edited one back.
    private byte[] contentHash(Tenant tenant, long seq) {
        return jdbc.sql("select * from audit_entries where tenant_id = :t and seq = :seq")
                .param("t", tenant.id())
                .param("seq", seq)
                .query((rs, row) -> AuditHashes.content(
                        tenant.id(),
                        rs.getObject("id", UUID.class),
                        rs.getTimestamp("recorded_at").toInstant(),
                        rs.getString("actor"),
                        rs.getString("action"),
                        rs.getString("user_hash"),
                        List.of((UUID[]) rs.getArray("subjects").getArray()),
                        rs.getString("details")))
                .single();
    }

    private String details(Tenant tenant, long seq) {
        return jdbc.sql("select details from audit_entries where tenant_id = :t and seq = :seq")
                .param("t", tenant.id())
                .param("seq", seq)
                .query(String.class)
                .single();
    }

    private void setDetails(Tenant tenant, long seq, String details) {
        jdbc.sql("update audit_entries set details = :d where tenant_id = :t and seq = :seq")
                .param("d", details)
                .param("t", tenant.id())
                .param("seq", seq)
                .update();
    }

    @Test
    void anErasureAnswersAReceiptNamingItsEntryAndLeavesOnlyHashedEntries() {
        Tenant tenant = tenant();
        String user = "eve-" + tag;
        api.addFact(tenant.key(), user, "Eve was born in Tromso " + tag);
        String session = api.newSession(tenant.key(), user, null);
        api.importTurns(tenant.key(), session, "I work at the harbour " + tag, "Noted.");
        Api.Response sessionErased = api.send("DELETE", "/sessions/" + session, tenant.key(), null);
        assertThat(sessionErased.status()).as(sessionErased.raw()).isEqualTo(200);
        String sessionEntry =
                sessionErased.body().path("receipt").path("auditEntryId").asString();

        Api.Response erased = api.send("DELETE", "/memory?userId=" + user, tenant.key(), null);

        assertThat(erased.status()).as(erased.raw()).isEqualTo(200);
        JsonNode receipt = erased.body().path("receipt");
        Api.Response entry = api.get(tenant.key(), receipt.path("entryPath").asString());
        assertThat(entry.status()).as(entry.raw()).isEqualTo(200);
        assertThat(entry.text("id")).isEqualTo(receipt.path("auditEntryId").asString());
        assertThat(entry.text("action")).isEqualTo("user.erased");
        assertThat(entry.body().path("details").path("memories").asInt())
                .isEqualTo(erased.body().path("memories").asInt());
        assertThat(entry.body().path("seq").asLong()).isPositive();
        assertThat(entry.text("hash")).hasSize(64);
        assertThat(api.get(tenant.key(), "/audit/entries/" + sessionEntry).text("action"))
                .isEqualTo("session.erased");
        assertThat(rowsNaming(tenant, user)).isZero();
        assertThat(rowsNaming(tenant, tag))
                .as("rows holding memory or turn text")
                .isZero();
        assertThat(actions(trail(tenant, "&userId=" + user)))
                .as("the erased user's entries, still found by the id's hash")
                .contains("memory.created", "turns.recorded", "session.erased", "user.erased");
        assertThat(verify(tenant).path("intact").asBoolean()).isTrue();
        assertThat(api.get(api.newTenant(), receipt.path("entryPath").asString())
                        .status())
                .as("another tenant's entry")
                .isEqualTo(404);
    }

    @Test
    void keyAndRetentionChangesAreRecordedAsTheOperatorsWork() {
        Tenant tenant = tenant();
        Api.Response created = api.send("POST", "/admin/tenants/" + tenant.id() + "/keys", Api.BOOTSTRAP_KEY, null);
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        api.send("DELETE", "/admin/tenants/" + tenant.id() + "/keys/" + created.text("id"), Api.BOOTSTRAP_KEY, null);
        api.send(
                "PUT",
                "/admin/tenants/" + tenant.id() + "/retention/history",
                Api.BOOTSTRAP_KEY,
                Json.object("keepFor", "P30D"));

        Api.Response page = api.send("GET", "/admin/tenants/" + tenant.id() + "/audit", Api.BOOTSTRAP_KEY, null);

        assertThat(page.status()).as(page.raw()).isEqualTo(200);
        List<JsonNode> entries = new ArrayList<>();
        page.body().path("entries").forEach(entries::add);
        assertThat(actions(entries)).containsSubsequence("key.created", "key.created", "key.revoked", "retention.set");
        assertThat(only(entries, "key.revoked").path("actor").asString()).isEqualTo("operator");
        assertThat(only(entries, "key.revoked").path("subjects").toString()).contains(created.text("id"));
        assertThat(only(entries, "retention.set")
                        .path("details")
                        .path("keepFor")
                        .asString())
                .isEqualTo("PT720H");
        assertThat(api.send("GET", "/admin/tenants/" + UUID.randomUUID() + "/audit", Api.BOOTSTRAP_KEY, null)
                        .status())
                .isEqualTo(404);
        assertThat(api.get(tenant.key(), "/admin/tenants/" + tenant.id() + "/audit")
                        .status())
                .as("a tenant's key on the operator's path")
                .isEqualTo(401);
        assertThat(api.get(tenant.key(), "/audit?limit=0").status()).isEqualTo(400);
    }

    @Test
    void purgingOldEntriesCutsTheChainsFrontAndVerifyStillHolds() {
        Tenant tenant = tenant();
        operatorEntries(tenant, 2);
        assertThat(verify(tenant).path("checked").asLong()).isEqualTo(3);
        // The first two entries made older than memoir.audit.keep-for (their content no longer matches, but they
        // are purged before anything reads them).
        jdbc.sql("update audit_entries set recorded_at = :old where tenant_id = :t and seq <= 2")
                .param("old", java.sql.Timestamp.from(Instant.now().minus(800, ChronoUnit.DAYS)))
                .param("t", tenant.id())
                .update();

        assertThat(purge.purge()).isGreaterThanOrEqualTo(2);

        JsonNode verified = verify(tenant);
        assertThat(verified.path("intact").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.path("firstSeq").asLong()).isEqualTo(3);
        assertThat(verified.path("checked").asLong()).isEqualTo(1);
        jdbc.sql("delete from audit_entries where tenant_id = :t and seq = 3")
                .param("t", tenant.id())
                .update();
        operatorEntries(tenant, 1);
        assertThat(verify(tenant).path("fault").path("reason").asString())
                .as("the first kept entry removed after a purge")
                .isEqualTo("seq-gap");
    }
}
