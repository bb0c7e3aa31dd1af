package dev.memoir.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;
import dev.memoir.support.SecondInstance;

/**
 * Two instances of one deployment share one count: clients chatting through both at once, several at a time on each,
 * under a {@code refuse} budget, are all refused once it is used up, and the count (which is what the model server
 * saw) goes past the limit by at most one request's worth per instance.
 */
class BudgetTwoInstancesTest extends IntegrationTest {

    private static final int CLIENTS_PER_INSTANCE = 3;

    @Autowired
    UsageRecorder recorder;

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void clientsOnTwoInstancesAreRefusedAtTheLimitAndTheCountGoesPastItByAtMostOneRequestPerInstance()
            throws Exception {
        Api.Response tenant = api.createTenant("budget-two-" + tag);
        String key = tenant.text("apiKey");
        UUID tenantId = UUID.fromString(tenant.text("id"));
        String marker = "puffin" + tag;
        String warmUp = api.newSession(key, "gus-" + tag, null);
        assertThat(api.chat(key, warmUp, "Where do " + marker + "s nest?").status())
                .isEqualTo(200);
        long oneReply = servedTokens(marker);
        recorder.flush();
        long limit = oneReply * 12;
        Api.Response set = api.send(
                "PUT",
                "/admin/tenants/" + tenantId + "/budget",
                Api.BOOTSTRAP_KEY,
                Json.object("period", "day", "maxTokens", limit, "policy", "refuse"));
        assertThat(set.status()).as(set.raw()).isEqualTo(200);

        // Replies that take a while, so that the clients' requests are in flight at once near the limit.
        onModelCall(
                call -> call.is(FakeOpenAiServer.Step.REPLY) && call.mentions(marker),
                call -> FakeOpenAiServer.Answer.delayed(
                        Duration.ofMillis(300), "{\"reply\": \"Far.\", \"remember\": false, \"citations\": []}"));
        try (SecondInstance second = SecondInstance.start()) {
            List<Api> instances = List.of(api, second.api());
            ExecutorService clients = Executors.newFixedThreadPool(2 * CLIENTS_PER_INSTANCE);
            List<Future<int[]>> outcomes = new ArrayList<>();
            for (int client = 0; client < 2 * CLIENTS_PER_INSTANCE; client++) {
                Api through = instances.get(client % 2);
                String session = api.newSession(key, "gus-" + client + "-" + tag, null);
                int number = client;
                outcomes.add(clients.submit(() -> chatUntilRefused(through, key, session, marker, number)));
            }
            int answered = 0;
            for (Future<int[]> outcome : outcomes) {
                int[] counts = outcome.get();
                answered += counts[0];
                assertThat(counts[1]).as("each client ends refused").isEqualTo(1);
            }
            clients.shutdown();
            assertThat(answered).as("replies answered under the budget").isPositive();
        }

        long served = servedTokens(marker);
        long largest = fake.served().stream()
                .filter(call -> call.call().mentions(marker))
                .mapToLong(call -> call.promptTokens() + call.completionTokens())
                .max()
                .orElseThrow();
        Long counted = jdbc.sql("select tokens from usage_budget_spend where tenant_id = ? and user_id = ''")
                .param(tenantId)
                .query(Long.class)
                .single();
        assertThat(counted).as("the shared count is what the model server saw").isEqualTo(served);
        assertThat(served)
                .as("past the limit %d by at most one request per instance (the largest: %d)", limit, largest)
                .isLessThanOrEqualTo(limit + 2 * largest);
        assertThat(served).as("the budget was used").isGreaterThanOrEqualTo(limit);
    }

    /** Replies answered, then 1 once refused with budget-exhausted. */
    private static int[] chatUntilRefused(Api through, String key, String session, String marker, int client) {
        int answered = 0;
        for (int i = 0; i < 200; i++) {
            Api.Response reply = through.chat(key, session, "Do " + marker + "s fly far? " + client + "." + i);
            if (reply.status() == 429) {
                assertThat(reply.text("code")).isEqualTo("budget-exhausted");
                return new int[] {answered, 1};
            }
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            answered++;
        }
        return new int[] {answered, 0};
    }

    private long servedTokens(String marker) {
        return fake.served().stream()
                .filter((FakeOpenAiServer.Served call) -> call.call().mentions(marker))
                .mapToLong(call -> call.promptTokens() + call.completionTokens())
                .sum();
    }
}
