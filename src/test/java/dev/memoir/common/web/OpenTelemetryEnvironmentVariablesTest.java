package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.memoir.support.Api;
import dev.memoir.support.ServiceProcess;

/**
 * What docs/running.md says of OpenTelemetry: the standard {@code OTEL_*} environment variables alone, with nothing in
 * the application's settings, send the spans and the metrics over OTLP (HTTP) to the collector they name. Memoir runs
 * in a JVM of its own (environment variables cannot be set in this one), in a database schema of its own, with these
 * variables; a collector in the test records what is posted to it.
 */
class OpenTelemetryEnvironmentVariablesTest {

    private record Export(String path, String body) {}

    @Test
    void theStandardVariablesSendSpansAndMetricsToTheCollectorTheyName() throws Exception {
        Queue<Export> received = new ConcurrentLinkedQueue<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", exchange -> {
            // OTLP's protobuf holds the span names and attribute values as UTF-8 bytes; Latin-1 keeps every byte.
            received.add(new Export(
                    exchange.getRequestURI().getPath(),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.ISO_8859_1)));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        try (ServiceProcess memoir = ServiceProcess.start(
                "otel_environment",
                List.of(),
                Map.of(),
                Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://127.0.0.1:" + collector.getAddress().getPort(),
                        "OTEL_METRICS_EXPORTER",
                        "otlp",
                        "OTEL_METRIC_EXPORT_INTERVAL",
                        "1000"))) {
            Api.Response tenant = memoir.api().createTenant("otel");
            assertThat(tenant.status()).as(tenant.raw()).isEqualTo(201);

            Awaitility.await("the request's span exported to /v1/traces")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> received.stream()
                            .anyMatch(export -> export.path().equals("/v1/traces")
                                    && export.body().contains("/admin/tenants")));
            Awaitility.await("metrics exported to /v1/metrics")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> received.stream()
                            .anyMatch(export -> export.path().equals("/v1/metrics")
                                    && export.body().contains("memoir")));
        } finally {
            collector.stop(0);
        }
    }
}
