package dev.memoir.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.memory.MemoryPurge;
import dev.memoir.memory.RetentionRule;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

class RetentionTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MemoryPurger purger;

    @Autowired
    MemoryPurge purge;

    @Autowired
    MeterRegistry meters;

    private record Tenant(UUID id, String key) {}

    private Tenant newTenant() {
        Api.Response created = api.createTenant("retention-" + UUID.randomUUID());
        return new Tenant(UUID.fromString(created.text("id")), created.text("apiKey"));
    }

    private long rows(String table, String column, String id) {
        return jdbc.sql("select count(*) from " + table + " where " + column + " = cast(:id as uuid)")
                .param("id", id)
                .query(Long.class)
                .single();
    }

    private static JsonNode kind(Api.Response retention, String kind) {
        for (JsonNode entry : retention.body().path("kinds")) {
            if (entry.path("kind").asString().equals(kind)) {
                return entry;
            }
        }
        throw new AssertionError("no " + kind + " in " + retention.raw());
    }

    private double purgedCount(String kind, String reason) {
        var counter = meters.find("memoir.retention.purged")
                .tag("kind", kind)
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void anExpiredMemoryIsInvisibleAtOnceAndThePurgeDeletesItWithItsRevisionsAndPassages() {
        Tenant tenant = newTenant();
        String id = api.addFact(
                tenant.key(),
                "ann",
                "Ann's door code is 4711 " + tag + " " + "word ".repeat(400),
                "supersedes",
                List.of(),
                "expiresAt",
                Instant.now().plus(Duration.ofDays(1)));
        api.send(
                "PATCH",
                "/memory/" + id,
                tenant.key(),
                Json.object("text", "Ann's door code is 0815 " + tag + " " + "word ".repeat(400)));
        assertThat(api.get(tenant.key(), "/memory/" + id).text("expiresAt")).isNotNull();
        assertThat(rows("memory_revisions", "memory_id", id)).isPositive();
        assertThat(rows("memory_passages", "memory_id", id)).isPositive();
        double before = purgedCount("fact", "expired");

        jdbc.sql("update memory_records set expires_at = now() - interval '1 second' where id = cast(:id as uuid)")
                .param("id", id)
                .update();

        assertThat(api.get(tenant.key(), "/memory/" + id).status()).isEqualTo(404);
        assertThat(items(api.get(tenant.key(), "/memory?userId=ann"))).isEmpty();
        assertThat(items(api.get(tenant.key(), "/memory?userId=ann&query=door%20code&includeSuperseded=true")))
                .isEmpty();
        assertThat(rows("memory_records", "id", id))
                .as("still stored until the purge")
                .isOne();

        assertThat(purger.purge().expired()).isPositive();

        assertThat(rows("memory_records", "id", id)).isZero();
        assertThat(rows("memory_revisions", "memory_id", id)).isZero();
        assertThat(rows("memory_passages", "memory_id", id)).isZero();
        assertThat(purgedCount("fact", "expired")).isGreaterThanOrEqualTo(before + 1);
    }

    @Test
    void expiresAtMustBeInTheFutureAndNullClearsIt() {
        Tenant tenant = newTenant();
        Api.Response past = api.addMemory(tenant.key(), "bea", "x " + tag, "expiresAt", "2020-01-01T00:00:00Z");
        assertThat(past.status()).isEqualTo(400);
        assertThat(past.raw()).contains("expiresAt");
        String id = api.addFact(
                tenant.key(),
                "bea",
                "Bea is in Lisbon this week " + tag,
                "supersedes",
                List.of(),
                "expiresAt",
                Instant.now().plus(Duration.ofDays(7)));

        Api.Response cleared = api.send("PATCH", "/memory/" + id, tenant.key(), "{\"expiresAt\": null}");

        assertThat(cleared.status()).as(cleared.raw()).isEqualTo(200);
        assertThat(cleared.body().has("expiresAt")).isFalse();
        assertThat(api.get(tenant.key(), "/memory/" + id).body().has("expiresAt"))
                .isFalse();
        Api.Response nothing = api.send("PATCH", "/memory/" + id, tenant.key(), "{}");
        assertThat(nothing.status()).isEqualTo(400);
        Api.Response garbled = api.send("PATCH", "/memory/" + id, tenant.key(), "{\"expiresAt\": \"soon\"}");
        assertThat(garbled.status()).isEqualTo(400);
        assertThat(garbled.raw()).contains("expiresAt");
        String soon = Instant.now().plus(Duration.ofHours(1)).toString();
        Api.Response set = api.send("PATCH", "/memory/" + id, tenant.key(), Json.object("expiresAt", soon));
        Instant stored = Instant.parse(soon).truncatedTo(ChronoUnit.MICROS);
        assertThat(Instant.parse(set.text("expiresAt")))
                .as("as every later read shows it")
                .isEqualTo(stored);
        assertThat(Instant.parse(
                        api.send("PATCH", "/memory/" + id, tenant.key(), Json.object("text", "Bea is in Porto " + tag))
                                .text("expiresAt")))
                .as("a new text keeps the expiry")
                .isEqualTo(stored);
    }

    @Test
    void aTenantsOwnRetentionDeletesItsOldMemoriesOfThatKindAndNoOtherTenants() {
        Tenant strict = newTenant();
        Tenant other = newTenant();
        String old = api.addFact(strict.key(), "cat", "Cat's old fact " + tag, "supersedes", List.of());
        String fresh = api.addFact(strict.key(), "cat", "Cat's new fact " + tag, "supersedes", List.of());
        String othersOld = api.addFact(other.key(), "cat", "Another tenant's old fact " + tag, "supersedes", List.of());
        jdbc.sql("update memory_records set created_at = now() - interval '2 days' where id in (cast(:a as uuid), "
                        + "cast(:b as uuid))")
                .param("a", old)
                .param("b", othersOld)
                .update();

        Api.Response set = api.send(
                "PUT",
                "/admin/tenants/" + strict.id() + "/retention/fact",
                Api.BOOTSTRAP_KEY,
                "{\"keepFor\": \"P1D\"}");
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(kind(set, "fact").path("source").asString()).isEqualTo("tenant");
        assertThat(Duration.parse(kind(set, "fact").path("keepFor").asString())).isEqualTo(Duration.ofDays(1));
        double before = purgedCount("fact", "retention");

        assertThat(purger.purge().pastRetention()).isPositive();

        assertThat(rows("memory_records", "id", old)).isZero();
        assertThat(rows("memory_records", "id", fresh)).isOne();
        assertThat(rows("memory_records", "id", othersOld)).isOne();
        assertThat(purgedCount("fact", "retention")).isGreaterThanOrEqualTo(before + 1);
        api.send("DELETE", "/admin/tenants/" + strict.id() + "/retention/fact", Api.BOOTSTRAP_KEY, null);
    }

    @Test
    void aTenantKeptForGoodOutlastsTheDeploymentsRetention() {
        Tenant kept = newTenant();
        Tenant defaulted = newTenant();
        String keptId = api.addFact(kept.key(), "dan", "Kept fact " + tag, "supersedes", List.of());
        String defaultedId = api.addFact(defaulted.key(), "dan", "Defaulted fact " + tag, "supersedes", List.of());
        jdbc.sql("update memory_records set created_at = now() - interval '10 days' where id in (cast(:a as uuid), "
                        + "cast(:b as uuid))")
                .param("a", keptId)
                .param("b", defaultedId)
                .update();

        // Until nothing is left: the database may hold other tests' old facts too.
        while (!purge.pastRetention(
                        List.of(new RetentionRule(null, MemoryKind.FACT, Duration.ofDays(9))),
                        List.of(new RetentionRule(kept.id(), MemoryKind.FACT, null)),
                        1000)
                .isEmpty()) {
            // next batch
        }

        assertThat(rows("memory_records", "id", keptId)).isOne();
        assertThat(rows("memory_records", "id", defaultedId)).isZero();
    }

    @Test
    void retentionRulesAreTheOperatorsAndNameWhatIsWrong() {
        Tenant tenant = newTenant();
        assertThat(api.get(tenant.key(), "/admin/tenants/" + tenant.id() + "/retention")
                        .status())
                .isEqualTo(401);
        assertThat(api.get(Api.BOOTSTRAP_KEY, "/admin/tenants/" + UUID.randomUUID() + "/retention")
                        .status())
                .isEqualTo(404);
        Api.Response unknownKind = api.send(
                "PUT",
                "/admin/tenants/" + tenant.id() + "/retention/diary",
                Api.BOOTSTRAP_KEY,
                "{\"keepFor\": \"P1D\"}");
        assertThat(unknownKind.status()).isEqualTo(400);
        Api.Response tooShort = api.send(
                "PUT",
                "/admin/tenants/" + tenant.id() + "/retention/history",
                Api.BOOTSTRAP_KEY,
                "{\"keepFor\": \"PT1S\"}");
        assertThat(tooShort.status()).isEqualTo(400);
        assertThat(tooShort.raw()).contains("keepFor");
        Api.Response empty =
                api.send("PUT", "/admin/tenants/" + tenant.id() + "/retention/history", Api.BOOTSTRAP_KEY, "{}");
        assertThat(empty.status()).as("an empty body is not \"keep for good\"").isEqualTo(400);
        assertThat(kind(api.get(Api.BOOTSTRAP_KEY, "/admin/tenants/" + tenant.id() + "/retention"), "history")
                        .path("source")
                        .asString())
                .isEqualTo("default");

        Api.Response forGood = api.send(
                "PUT",
                "/admin/tenants/" + tenant.id() + "/retention/history",
                Api.BOOTSTRAP_KEY,
                "{\"keepFor\": null}");
        assertThat(kind(forGood, "history").path("source").asString()).isEqualTo("tenant");
        assertThat(kind(forGood, "history").path("keepFor").isNull())
                .as("kept for good")
                .isTrue();
        Api.Response removed =
                api.send("DELETE", "/admin/tenants/" + tenant.id() + "/retention/history", Api.BOOTSTRAP_KEY, null);
        assertThat(kind(removed, "history").path("source").asString()).isEqualTo("default");
    }
}
