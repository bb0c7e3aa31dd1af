package dev.memoir.usage;

import static dev.memoir.support.Problems.assertBadField;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** Reading usage: a tenant its own, the operator every tenant's, priced where the operator set a price. */
class UsageReportTest extends IntegrationTest {

    @Autowired
    UsageRecorder recorder;

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private String chatOnce(String key, String user) {
        String session = api.newSession(key, user, null);
        Api.Response reply = api.chat(key, session, "Tell me about tide pools " + tag);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        return session;
    }

    private long sum(String column, String tenantId, String extra) {
        return jdbc.sql("select coalesce(sum(" + column + "), 0) from usage_hours where tenant_id = cast(? as uuid) "
                        + extra)
                .param(tenantId)
                .query(Long.class)
                .single();
    }

    private static List<String> keys(JsonNode report) {
        List<String> keys = new ArrayList<>();
        report.path("groups").forEach(group -> keys.add(group.path("key").asString()));
        return keys;
    }

    @Test
    void aTenantReadsItsOwnUsageByUserAndStepPricedPerModelAndNeverAnotherTenants() {
        Api.Response first = api.createTenant("usage-read-a-" + tag);
        Api.Response second = api.createTenant("usage-read-b-" + tag);
        String key = first.text("apiKey");
        chatOnce(key, "ines-" + tag);
        chatOnce(key, "jon-" + tag);
        chatOnce(second.text("apiKey"), "kim-" + tag);
        recorder.flush();

        JsonNode byUser = api.get(key, "/usage?groupBy=user").body();
        assertThat(keys(byUser)).containsExactlyInAnyOrder("ines-" + tag, "jon-" + tag);
        String tenantId = first.text("id");
        assertThat(byUser.path("total").path("promptTokens").asLong())
                .isEqualTo(sum("prompt_tokens", tenantId, ""))
                .isPositive();
        assertThat(byUser.path("total").path("completionTokens").asLong())
                .isEqualTo(sum("completion_tokens", tenantId, ""));
        assertThat(byUser.path("interval").asString()).isEqualTo("day");
        assertThat(byUser.path("groups").get(0).path("series")).hasSize(1);

        // The fake's model is priced in the tests (2.50 in, 10 out per million); the in-process embedder is not.
        JsonNode byStep = api.get(key, "/usage?groupBy=step&interval=hour").body();
        assertThat(keys(byStep)).contains("reply", "embedding-query");
        JsonNode reply = byStep.path("groups")
                .valueStream()
                .filter(group -> group.path("key").asString().equals("reply"))
                .findFirst()
                .orElseThrow()
                .path("total");
        BigDecimal expected = BigDecimal.valueOf(reply.path("promptTokens").asLong())
                .multiply(new BigDecimal("2.50"))
                .add(BigDecimal.valueOf(reply.path("completionTokens").asLong()).multiply(BigDecimal.TEN))
                .divide(BigDecimal.valueOf(1_000_000));
        assertThat(reply.path("estimatedCost").decimalValue()).isEqualByComparingTo(expected);
        assertThat(byStep.path("unpricedModels").valueStream().map(JsonNode::asString))
                .contains("bge-small-en-v1.5")
                .doesNotContain(FakeOpenAiServer.MODEL);
        assertThat(byStep.path("costNote").asString()).contains("estimate");

        JsonNode oneUser =
                api.get(key, "/usage?groupBy=model&userId=jon-" + tag).body();
        assertThat(keys(oneUser)).contains(FakeOpenAiServer.MODEL);
        assertThat(oneUser.path("total").path("promptTokens").asLong())
                .isEqualTo(sum("prompt_tokens", tenantId, "and user_id = 'jon-" + tag + "'"));

        JsonNode operator =
                api.get(Api.BOOTSTRAP_KEY, "/admin/usage?groupBy=tenant").body();
        assertThat(keys(operator)).contains(tenantId, second.text("id"));
        JsonNode oneTenant = api.get(Api.BOOTSTRAP_KEY, "/admin/usage?groupBy=user&tenantId=" + second.text("id"))
                .body();
        assertThat(keys(oneTenant)).containsExactly("kim-" + tag);
        assertThat(api.get(key, "/admin/usage").status()).isIn(401, 403);
    }

    @Test
    void aRangeThatIsEmptyTooLongOrAnotherTenantsGroupingIsA400NamingTheField() {
        String key = api.newTenant();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertBadField(api.get(key, "/usage?from=" + now + "&to=" + now.minus(1, ChronoUnit.DAYS)), "from");
        assertBadField(
                api.get(key, "/usage?interval=hour&from=" + now.minus(40, ChronoUnit.DAYS) + "&to=" + now), "from");
        assertBadField(api.get(key, "/usage?groupBy=tenant"), "groupBy");
        Api.Response unknown = api.get(key, "/usage?groupBy=colour");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.raw()).contains("step, user, model, kind");
    }

    @Test
    void erasingAUserKeepsTheirUsageInTheTenantsSumsAsNoOneUsers() {
        Api.Response tenant = api.createTenant("usage-erase-" + tag);
        String key = tenant.text("apiKey");
        String tenantId = tenant.text("id");
        String user = "lou-" + tag;
        chatOnce(key, user);
        recorder.flush();
        long prompt = sum("prompt_tokens", tenantId, "");
        assertThat(sum("prompt_tokens", tenantId, "and user_id = '" + user + "'"))
                .isPositive();

        Api.Response erased = api.send("DELETE", "/memory?userId=" + user, key, null);
        assertThat(erased.status()).as(erased.raw()).isEqualTo(200);
        recorder.flush();

        assertThat(sum("calls", tenantId, "and user_id = '" + user + "'")).isZero();
        assertThat(jdbc.sql("select count(*) from usage_calls where tenant_id = cast(? as uuid) and user_id = ?")
                        .params(tenantId, user)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(sum("prompt_tokens", tenantId, "")).isEqualTo(prompt);
        assertThat(sum("prompt_tokens", tenantId, "and user_id = ''")).isEqualTo(prompt);
    }
}
