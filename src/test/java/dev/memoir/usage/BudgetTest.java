package dev.memoir.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.sun.net.httpserver.HttpServer;

import dev.memoir.common.usage.BudgetExhaustedException;
import dev.memoir.common.usage.UsageScope;
import dev.memoir.llm.ModelCallGate;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Budgets degrade, not fail, in a started service: {@code defer} holds a tenant's memory jobs (shown as deferred)
 * and runs every one of them when the budget is raised; {@code reply-only} answers without self-reflection;
 * {@code refuse} answers 429 {@code budget-exhausted} with when the budget renews; searches, reads, exports and
 * erasure go on under every policy; the warning reaches a webhook and the response header once a period. (Two
 * instances sharing one count: BudgetTwoInstancesTest.)
 */
class BudgetTest extends IntegrationTest {

    @Autowired
    UsageRecorder recorder;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private HttpServer receiver;

    @AfterEach
    void stopReceiver() {
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    private record Tenant(String key, String id) {}

    private Tenant tenant() {
        Api.Response created = api.createTenant("budget-" + UUID.randomUUID());
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return new Tenant(created.text("apiKey"), created.text("id"));
    }

    private Api.Response setBudget(Tenant tenant, Object... fields) {
        return api.send("PUT", "/admin/tenants/" + tenant.id() + "/budget", Api.BOOTSTRAP_KEY, Json.object(fields));
    }

    @Test
    void deferHoldsMemoryJobsUntilTheBudgetIsRaisedAndRunsEveryOneWithoutAFailure() {
        Tenant tenant = tenant();
        Api.Response set = setBudget(tenant, "period", "day", "maxTokens", 1, "policy", "defer");
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(set.text("state")).isEqualTo("ok");
        String user = "ada-" + tag;
        String session = api.newSession(tenant.key(), user, "{\"strategy\": \"all\"}");

        Api.Response first = api.chat(tenant.key(), session, "My heron" + tag + " nests by the mill pond.");
        assertThat(first.status())
                .as("replies are answered under defer: " + first.raw())
                .isEqualTo(200);
        HttpResponse<String> second = api.sendWithHeaders(
                "POST",
                "/chat",
                tenant.key(),
                Json.object("sessionId", session, "message", "When does the heron" + tag + " lay its eggs?"));
        assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
        assertThat(second.headers().firstValue("Memoir-Budget"))
                .hasValueSatisfying(value -> assertThat(value).startsWith("exhausted; used="));
        assertThat(api.close(tenant.key(), session).status()).isEqualTo(202);

        eventually()
                .until(
                        () -> states(tenant.key(), session),
                        states -> !states.isEmpty() && states.stream().allMatch("deferred"::equals));
        int memoryCallsWhileHeld = memoryJobCalls("heron" + tag);
        assertThat(memoryCallsWhileHeld)
                .as("no memory job asked the model while held")
                .isZero();
        JsonNode deferred = api.get(tenant.key(), "/sessions/" + session)
                .body()
                .path("jobs")
                .get(0);
        assertThat(deferred.path("nextAttemptAt").asString())
                .as("when it looks again")
                .isNotEmpty();

        Api.Response raised = setBudget(tenant, "period", "day", "maxTokens", 10_000_000, "policy", "defer");
        assertThat(raised.status()).isEqualTo(200);

        eventually()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> states(tenant.key(), session),
                        states -> !states.isEmpty() && states.stream().allMatch("done"::equals));
        for (JsonNode job : api.get(tenant.key(), "/sessions/" + session).body().path("jobs")) {
            assertThat(job.path("failures").asInt()).as(job.toString()).isZero();
        }
        assertThat(memoryJobCalls("heron" + tag)).as("the held jobs ran").isPositive();
        assertThat(api.get(Api.BOOTSTRAP_KEY, "/admin/jobs/failed").raw()).doesNotContain(session);
    }

    @Test
    void replyOnlyAnswersWithMemorySearchButNoSelfReflection() {
        Tenant tenant = tenant();
        String user = "bea-" + tag;
        api.addFact(tenant.key(), user, "Bea's kestrel" + tag + " is called Pip.");
        String session = api.newSession(tenant.key(), user, null);
        assertThat(api.chat(tenant.key(), session, "What is my kestrel" + tag + " called? (1)")
                        .status())
                .isEqualTo(200);
        assertThat(selfReflections("kestrel" + tag))
                .as("self-reflection runs before the budget")
                .isPositive();
        int before = selfReflections("kestrel" + tag);
        recorder.flush();

        Api.Response set = setBudget(tenant, "period", "month", "maxTokens", 1, "policy", "reply-only");
        assertThat(set.text("state")).as(set.raw()).isEqualTo("exhausted");
        Api.Response reply = api.chat(tenant.key(), session, "What is my kestrel" + tag + " called? (2)");

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(selfReflections("kestrel" + tag))
                .as("no self-reflection once used up")
                .isEqualTo(before);
        assertThat(fake.calls(call -> call.is(Step.REPLY) && call.mentions("called? (2)")))
                .as("the reply still searched memory")
                .singleElement()
                .satisfies(call -> assertThat(call.prompt()).contains("Pip"));
    }

    @Test
    void refuseAnswers429WithItsCodeAndRenewalWhileSearchReadsExportsAndErasureGoOn() {
        Tenant tenant = tenant();
        String user = "cy-" + tag;
        api.addFact(tenant.key(), user, "Cy rows a blue skiff" + tag + " on Sundays.");
        String session = api.newSession(tenant.key(), user, null);
        assertThat(api.chat(tenant.key(), session, "Which skiff" + tag + " do I row?")
                        .status())
                .isEqualTo(200);
        recorder.flush();
        Api.Response set = setBudget(tenant, "period", "day", "maxTokens", 1, "policy", "refuse");
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(set.text("state")).as("counted from the usage so far").isEqualTo("exhausted");

        HttpResponse<String> refused = api.sendWithHeaders(
                "POST",
                "/chat",
                tenant.key(),
                Json.object("sessionId", session, "message", "And on which day do I row the skiff" + tag + "?"));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
        JsonNode problem = JSON.readTree(refused.body());
        assertThat(problem.path("code").asString()).isEqualTo("budget-exhausted");
        assertThat(problem.path("type").asString()).endsWith("/budget-exhausted");
        Instant renewsAt = Instant.parse(problem.path("renewsAt").asString());
        assertThat(renewsAt)
                .isAfter(Instant.now())
                .isBefore(Instant.now().plus(Duration.ofDays(1)).plusSeconds(5));
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(fake.calls(call -> call.is(Step.REPLY) && call.mentions("which day do I row")))
                .as("the refused reply never reached the model")
                .isEmpty();
        assertThat(api.get(tenant.key(), "/sessions/" + session).raw())
                .as("the user's message is kept")
                .contains("which day do I row the skiff" + tag);

        HttpResponse<String> openAi = api.sendWithHeaders(
                "POST",
                "/v1/chat/completions",
                tenant.key(),
                Json.object("user", user, "messages", List.of(Json.fields("role", "user", "content", "Hi " + tag))));
        assertThat(openAi.statusCode()).as(openAi.body()).isEqualTo(429);

        assertThat(api.get(tenant.key(), "/memory?userId=" + user + "&query=skiff")
                        .status())
                .as("search")
                .isEqualTo(200);
        assertThat(api.get(tenant.key(), "/sessions/" + session).status())
                .as("read")
                .isEqualTo(200);
        assertThat(api.get(tenant.key(), "/usage").status()).as("usage").isEqualTo(200);
        assertThat(api.get(tenant.key(), "/users/" + user + "/export").status())
                .as("export")
                .isEqualTo(200);
        assertThat(api.send("DELETE", "/memory?userId=" + user, tenant.key(), null)
                        .status())
                .as("erasure")
                .isBetween(200, 204);
    }

    @Test
    void theWarningAndTheEndAreToldOnceAPeriodByWebhookAndOnEveryResponseByHeader() throws IOException {
        Tenant tenant = tenant();
        List<String> received = new CopyOnWriteArrayList<>();
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        Api.Response hook = api.send(
                "POST",
                "/webhooks",
                tenant.key(),
                Json.object(
                        "url",
                        "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
                        "events",
                        List.of("budget.warning", "budget.exhausted")));
        assertThat(hook.status()).as(hook.raw()).isEqualTo(201);
        String user = "di-" + tag;
        String session = api.newSession(tenant.key(), user, null);
        assertThat(api.chat(tenant.key(), session, "Di's otter" + tag + " swims at dawn.")
                        .status())
                .isEqualTo(200);
        recorder.flush();
        long used = fake.served().stream()
                .filter(served -> served.call().mentions("otter" + tag))
                .mapToLong(served -> served.promptTokens() + served.completionTokens())
                .sum();
        assertThat(used).as("the chat-model tokens of the chat so far").isPositive();

        Api.Response set = setBudget(tenant, "period", "month", "maxTokens", used * 3 / 2, "warnAt", 0.5);
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(set.body().path("usedTokens").asLong())
                .as("counted from the usage so far")
                .isPositive();
        assertThat(set.text("state")).isEqualTo("warning");

        for (int i = 0; i < 3; i++) {
            assertThat(api.chat(tenant.key(), session, "Where does the otter" + tag + " sleep? " + i)
                            .status())
                    .as("defer by default: replies go on")
                    .isEqualTo(200);
        }
        eventually().until(() -> types(received), types -> types.size() == 2);
        assertThat(types(received)).containsExactlyInAnyOrder("budget.warning", "budget.exhausted");
        JsonNode exhausted = received.stream()
                .map(JSON::readTree)
                .filter(event -> event.path("type").asString().equals("budget.exhausted"))
                .findFirst()
                .orElseThrow()
                .path("data");
        assertThat(exhausted.path("period").asString()).isEqualTo("month");
        assertThat(exhausted.path("maxTokens").asLong()).isEqualTo(used * 3 / 2);
        assertThat(exhausted.path("usedTokens").asLong()).isGreaterThanOrEqualTo(used * 3 / 2);
        assertThat(exhausted.has("renewsAt")).isTrue();
        assertThat(api.sendWithHeaders("GET", "/sessions/" + session, tenant.key(), null)
                        .headers()
                        .firstValue("Memoir-Budget"))
                .hasValueSatisfying(value -> assertThat(value).startsWith("exhausted"));
        assertThat(api.get(tenant.key(), "/usage/budgets")
                        .body()
                        .path("tenant")
                        .path("state")
                        .asString())
                .isEqualTo("exhausted");
    }

    @Test
    void aTenantSetsBudgetsForItsUsersAndTheyAreGoneWithTheUsersErasure() {
        Tenant tenant = tenant();
        String user = "eve-" + tag;
        String session = api.newSession(tenant.key(), user, null);
        Api.Response set = api.send(
                "PUT",
                "/usage/budgets/users/" + user,
                tenant.key(),
                Json.object("period", "day", "maxTokens", 1, "policy", "refuse"));
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(set.text("userId")).isEqualTo(user);
        assertThat(api.chat(tenant.key(), session, "Eve's lark" + tag + " sings.")
                        .status())
                .isEqualTo(200);
        assertThat(api.chat(tenant.key(), session, "Does the lark" + tag + " sing?")
                        .status())
                .as("the user's budget is used up")
                .isEqualTo(429);
        String other = api.newSession(tenant.key(), "fay-" + tag, null);
        assertThat(api.chat(tenant.key(), other, "Fay's wren" + tag + " hops.").status())
                .as("another user of the tenant goes on")
                .isEqualTo(200);
        assertThat(api.get(tenant.key(), "/usage/budgets").body().has("tenant")).isFalse();
        assertThat(api.get(tenant.key(), "/usage/budgets").body().path("users")).hasSize(1);

        assertThat(api.send("DELETE", "/memory?userId=" + user, tenant.key(), null)
                        .status())
                .isBetween(200, 204);
        assertThat(api.get(tenant.key(), "/usage/budgets/users/" + user).status())
                .isEqualTo(404);
    }

    @Test
    void aBudgetWithoutALimitOrWithABadPolicyIsRefusedNamingTheField() {
        Tenant tenant = tenant();
        Api.Response none = setBudget(tenant, "period", "day");
        assertThat(none.status()).isEqualTo(400);
        assertThat(none.raw()).contains("maxTokens");
        Api.Response badPolicy = setBudget(tenant, "period", "day", "maxTokens", 5, "policy", "sometimes");
        assertThat(badPolicy.status()).isEqualTo(400);
        assertThat(badPolicy.raw()).contains("policy").contains("reply-only");
        assertThat(api.send(
                                "PUT",
                                "/admin/tenants/" + UUID.randomUUID() + "/budget",
                                Api.BOOTSTRAP_KEY,
                                Json.object("period", "day", "maxTokens", 5))
                        .status())
                .isEqualTo(404);
        assertThat(api.send(
                                "PUT",
                                "/admin/tenants/" + tenant.id() + "/budget",
                                tenant.key(),
                                Json.object("period", "day", "maxTokens", 5))
                        .status())
                .as("only the operator sets a tenant's budget")
                .isEqualTo(401);
    }

    @Autowired
    BudgetGate gate;

    @Test
    void aUsedUpBudgetThatCannotStopARequestNeverHoldsItUp() throws Exception {
        Tenant tenant = tenant();
        String user = "gil-" + tag;
        assertThat(setBudget(tenant, "period", "day", "maxTokens", 10_000_000, "policy", "refuse")
                        .status())
                .isEqualTo(200);
        Api.Response own = api.send(
                "PUT",
                "/usage/budgets/users/" + user,
                tenant.key(),
                Json.object("period", "day", "maxTokens", 1, "policy", "defer"));
        assertThat(own.status()).as(own.raw()).isEqualTo(200);
        String session = api.newSession(tenant.key(), user, null);
        assertThat(api.chat(tenant.key(), session, "Gil's newt" + tag + " hides.")
                        .status())
                .isEqualTo(200);
        assertThat(api.get(tenant.key(), "/usage/budgets/users/" + user)
                        .body()
                        .path("state")
                        .asString())
                .isEqualTo("exhausted");

        // A reply of the user: the tenant's refuse budget is far from its limit and the user's defer budget cannot
        // stop a reply, so it is admitted at once, though it may take an hour and the holds exceed the user's limit.
        ModelCallGate.Call reply =
                new ModelCallGate.Call("reply", false, FakeOpenAiServer.MODEL, 500, 500, Duration.ofHours(1));
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> admitted = caller.submit(() -> {
                try (UsageScope scope = UsageScope.open(UUID.fromString(tenant.id()), user, null);
                        ModelCallGate.Admission admission = gate.admit(reply)) {
                    return !admission.skipped();
                }
            });
            assertThat(admitted.get(20, TimeUnit.SECONDS)).isTrue();
            Future<Throwable> job = caller.submit(() -> {
                try (UsageScope scope = UsageScope.openJob(UUID.fromString(tenant.id()), user, null)) {
                    gate.admit(reply).close();
                    return null;
                } catch (BudgetExhaustedException e) {
                    return e;
                }
            });
            assertThat(job.get(20, TimeUnit.SECONDS))
                    .as("a job of the user waits, under every policy")
                    .isInstanceOf(BudgetExhaustedException.class);
        } finally {
            caller.shutdownNow();
        }
    }

    private List<String> states(String key, String session) {
        List<String> states = new ArrayList<>();
        api.get(key, "/sessions/" + session)
                .body()
                .path("jobs")
                .forEach(job -> states.add(job.path("state").asString()));
        return states;
    }

    private int memoryJobCalls(String marker) {
        return fake.calls(call -> !call.is(Step.REPLY) && !call.is(Step.SELF_REFLECTION) && call.mentions(marker))
                .size();
    }

    private int selfReflections(String marker) {
        return fake.calls(call -> call.is(Step.SELF_REFLECTION) && call.mentions(marker))
                .size();
    }

    private static List<String> types(List<String> received) {
        return received.stream()
                .map(body -> JSON.readTree(body).path("type").asString())
                .toList();
    }
}
