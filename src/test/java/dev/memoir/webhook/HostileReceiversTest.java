package dev.memoir.webhook;

import static dev.memoir.support.Problems.assertBadField;
import static dev.memoir.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sun.net.httpserver.HttpServer;

import dev.memoir.memory.MemoryPurge;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * Webhook receivers as a hostile tenant runs them (issue 40): one that stalls its answer's body, one that never
 * answers, one that answers 2 GiB. A delivery attempt ends within memoir.webhooks.timeout (1 s in tests) whatever
 * the receiver does, and no job thread waits for one, so another tenant's memory jobs run meanwhile. Also the
 * addresses that hide a private IPv4 address in IPv6, the limit of endpoints, and a memory's text in the payloads
 * once the memory is gone.
 */
class HostileReceiversTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MemoryPurge purge;

    private String register(String key, String url, String... events) {
        Api.Response created = api.send("POST", "/webhooks", key, Json.object("url", url, "events", List.of(events)));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return created.text("id");
    }

    private void test(String key, String endpoint) {
        Api.Response queued = api.send("POST", "/webhooks/" + endpoint + "/test", key, null);
        assertThat(queued.status()).as(queued.raw()).isEqualTo(202);
    }

    private List<JsonNode> deliveries(String key, String endpoint) {
        return items(api.get(key, "/webhooks/" + endpoint + "/deliveries"));
    }

    @Test
    void receiversThatStallTheirBodiesHoldNoJobThreadAndAnotherTenantsSessionClosesAndItsJobsRunMeanwhile()
            throws IOException {
        try (HostileReceiver stallingA = new HostileReceiver(HostileReceiver.Behaviour.STALLS_ITS_BODY);
                HostileReceiver stallingB = new HostileReceiver(HostileReceiver.Behaviour.STALLS_ITS_BODY)) {
            String keyA = api.newTenant();
            String keyB = api.newTenant();
            String endpointA = register(keyA, stallingA.url(), "memory.created");
            String endpointB = register(keyB, stallingB.url(), "memory.created");
            // Two job threads in tests: before, two such deliveries held both of them until the receiver let go.
            for (int i = 0; i < 2; i++) {
                test(keyA, endpointA);
                test(keyB, endpointB);
            }
            eventually().until(() -> stallingA.requests() == 2 && stallingB.requests() == 2);

            String session = api.newSession(keyB, "bea", null);
            api.importTurns(keyB, session, "I grow tomatoes on my balcony " + tag, "Lovely.");
            onModelCall(
                    call -> call.is(Step.SESSION_SUMMARY) && call.mentions(tag),
                    call -> Answer.sessionSummary("Bea grows tomatoes " + tag + "."));
            assertThat(api.close(keyB, session).status()).isEqualTo(202);

            // While both receivers still hold their connections.
            eventually().until(() -> {
                JsonNode jobs = api.get(keyB, "/sessions/" + session).body().path("jobs");
                return !jobs.isEmpty()
                        && jobs.valueStream()
                                .allMatch(job -> job.path("state").asString().equals("done"));
            });
            assertThat(ofKind(api.get(keyB, "/memory?userId=bea&kind=summary"), "summary"))
                    .hasSize(1);
            // A receiver that answered 200 took the delivery, whatever became of its body.
            eventually()
                    .until(() -> deliveries(keyA, endpointA).stream()
                            .allMatch(d -> d.path("state").asString().equals("delivered")));
            assertThat(deliveries(keyA, endpointA))
                    .allSatisfy(d -> assertThat(d.path("lastStatus").asInt()).isEqualTo(200));
        }
    }

    @Test
    void aReceiverThatNeverAnswersFailsTheAttemptAtTheTimeoutAndItIsRetried() throws IOException {
        try (HostileReceiver silent = new HostileReceiver(HostileReceiver.Behaviour.NEVER_ANSWERS)) {
            String key = api.newTenant();
            String endpoint = register(key, silent.url(), "memory.created");
            test(key, endpoint);

            eventually().until(() -> silent.requests() >= 2);
            JsonNode delivery = deliveries(key, endpoint).getFirst();
            assertThat(delivery.path("attempts").asInt()).isGreaterThanOrEqualTo(1);
            assertThat(delivery.path("lastError").asString()).isEqualTo("no answer within 1000 ms");
        }
    }

    @Test
    void anAnswerOf2GibIsNotRead() throws IOException {
        try (HostileReceiver flooding = new HostileReceiver(HostileReceiver.Behaviour.ANSWERS_2_GIB)) {
            String key = api.newTenant();
            String endpoint = register(key, flooding.url(), "memory.created");
            test(key, endpoint);

            eventually()
                    .until(() -> deliveries(key, endpoint)
                            .getFirst()
                            .path("state")
                            .asString()
                            .equals("delivered"));
            flooding.release();
            // What the connection took before it was dropped: the socket buffers, not the body.
            assertThat(flooding.bodyBytesWritten()).isLessThan(64L << 20);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "http://[64:ff9b::a9fe:a9fe]/hook", // NAT64 of 169.254.169.254, the cloud metadata service
                "http://[64:ff9b:1::a00:1]/hook", // local-use NAT64
                "http://[2002:a9fe:a9fe::1]/hook", // 6to4 of 169.254.169.254
                "http://[2002:7f00:1::1]/hook", // 6to4 of 127.0.0.1
                "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", // Teredo, its client 127.0.0.1
                "http://[::127.0.0.1]/hook", // IPv4-compatible
                "http://[::ffff:0:a00:1]/hook", // IPv4-translated 10.0.0.1
                "http://[::ffff:169.254.169.254]/hook", // IPv4-mapped
                "http://192.0.0.192/hook", // IETF protocol assignments
                "http://192.0.2.1/hook", // documentation
                "http://198.51.100.7/hook",
                "http://203.0.113.9/hook",
                "http://[2001:db8::1]/hook",
                "http://[100::1]/hook" // discard-only
            })
    void anAddressThatIsNotPublicIsRefusedHoweverIPv6SpellsIt(String url) {
        String key = api.newTenant();

        Api.Response refused =
                api.send("POST", "/webhooks", key, Json.object("url", url, "events", List.of("memory.created")));

        assertBadField(refused, "url");
        assertThat(refused.raw()).contains("not public");
    }

    @Test
    void aTenantRegistersUpToTheLimitOfEndpointsAndIsToldWhenItIsReached() {
        String key = api.newTenant();
        for (int i = 0; i < 20; i++) {
            register(key, "http://127.0.0.1:9/hook-" + i, "memory.created");
        }

        Api.Response refused = api.send(
                "POST",
                "/webhooks",
                key,
                Json.object("url", "http://127.0.0.1:9/hook-20", "events", List.of("memory.created")));

        assertProblem(refused, 409, "too-many-webhooks");
        assertThat(refused.body().path("detail").asString()).contains("memoir.webhooks.max-endpoints");
        assertThat(items(api.get(key, "/webhooks"))).hasSize(20);
    }

    /** A receiver that answers 500 until told otherwise, keeping what it took. */
    private static final class Refusing implements AutoCloseable {
        final HttpServer server;
        final List<String> accepted = new CopyOnWriteArrayList<>();
        final AtomicInteger status = new AtomicInteger(500);

        Refusing() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/hook", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                int answer = status.get();
                if (answer < 300) {
                    accepted.add(body);
                }
                exchange.sendResponseHeaders(answer, -1);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** The payloads of the tenant's deliveries that tell of the memory, by its id in them. */
    private List<String> payloadsOf(String memoryId) {
        return jdbc.sql("select payload from webhook_deliveries where payload like ?")
                .param("%\"memoryId\":\"" + memoryId + "\"%")
                .query(String.class)
                .list();
    }

    @Test
    void aMemorysTextLeavesEveryPayloadWhenTheMemoryIsDeletedOrExpires() throws IOException {
        try (Refusing receiver = new Refusing()) {
            String key = api.newTenant();
            Api.Response created = api.send(
                    "POST",
                    "/webhooks",
                    key,
                    Json.object("url", receiver.url(), "events", List.of("memory.created"), "includeText", true));
            assertThat(created.status()).as(created.raw()).isEqualTo(201);
            String deleted = api.addFact(key, "dan", "Dan's locker code is 1234 " + tag, "supersedes", List.of());
            String expiring = api.addFact(
                    key,
                    "dan",
                    "Dan's spare key is under the mat " + tag,
                    "supersedes",
                    List.of(),
                    "expiresAt",
                    Instant.now().plusSeconds(3600));
            assertThat(payloadsOf(deleted)).singleElement().asString().contains("locker code");
            assertThat(payloadsOf(expiring)).singleElement().asString().contains("spare key");

            assertThat(api.send("DELETE", "/memory/" + deleted, key, null).status())
                    .isEqualTo(204);
            jdbc.sql("update memory_records set expires_at = now() - interval '1 second' where id = cast(? as uuid)")
                    .param(expiring)
                    .update();
            purge.expired(100);

            assertThat(payloadsOf(deleted)).isNotEmpty().noneMatch(p -> p.contains("locker code"));
            assertThat(payloadsOf(expiring)).isNotEmpty().noneMatch(p -> p.contains("spare key"));
            receiver.status.set(204);
            eventually().until(() -> receiver.accepted.size() == 2);
            assertThat(receiver.accepted).noneMatch(body -> body.contains(tag));
        }
    }
}
