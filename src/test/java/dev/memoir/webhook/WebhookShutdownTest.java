package dev.memoir.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.Json;
import dev.memoir.support.SeparateDeployment;

/**
 * Stopping the service with a delivery in flight to a receiver that stalls its answer's body waits at most the
 * attempt's timeout for it (issue 40: it waited for the receiver, up to db-scheduler's half hour per job). A
 * deployment of its own, since this test stops it.
 */
class WebhookShutdownTest {

    @Test
    void stoppingTheServiceWaitsForADeliveryInFlightAtMostItsTimeout() throws Exception {
        try (HostileReceiver stalling = new HostileReceiver(HostileReceiver.Behaviour.STALLS_ITS_BODY)) {
            SeparateDeployment service =
                    SeparateDeployment.start("webhook_shutdown_test", Map.of("memoir.webhooks.timeout", "2s"));
            CompletableFuture<Void> stopped;
            try {
                Api api = service.api();
                String key = api.newTenant();
                Api.Response endpoint = api.send(
                        "POST",
                        "/webhooks",
                        key,
                        Json.object("url", stalling.url(), "events", List.of("memory.created")));
                assertThat(endpoint.status()).as(endpoint.raw()).isEqualTo(201);
                assertThat(api.send("POST", "/webhooks/" + endpoint.text("id") + "/test", key, null)
                                .status())
                        .isEqualTo(202);
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> stalling.requests() == 1);
            } finally {
                stopped = CompletableFuture.runAsync(service::close);
            }

            // The receiver holds its connection for a minute; the attempt ends at 2 s.
            stopped.get(20, TimeUnit.SECONDS);
        }
    }
}
