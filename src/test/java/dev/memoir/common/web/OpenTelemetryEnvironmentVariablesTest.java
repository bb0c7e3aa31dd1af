package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.memoir.MemoirApplication;
import dev.memoir.support.Api;
import dev.memoir.support.SeparateDeployment;

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
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                MemoirApplication.class.getName()));
        command.addAll(
                SeparateDeployment.processArguments("otel_environment", Map.of("server.port", Integer.toString(port))));
        Path log = Files.createDirectories(Path.of("target")).resolve("otel-environment-variables.log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment()
                .put(
                        "OTEL_EXPORTER_OTLP_ENDPOINT",
                        "http://127.0.0.1:" + collector.getAddress().getPort());
        builder.environment().put("OTEL_METRICS_EXPORTER", "otlp");
        builder.environment().put("OTEL_METRIC_EXPORT_INTERVAL", "1000");
        Process memoir = builder.start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            Awaitility.await("Memoir started (" + log + ")")
                    .atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        assertThat(memoir.isAlive())
                                .as("Memoir still running (" + log + ")")
                                .isTrue();
                        return healthy(http, port);
                    });

            Api.Response tenant = new Api(port).createTenant("otel");
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
            memoir.destroy();
            if (!memoir.waitFor(30, TimeUnit.SECONDS)) {
                memoir.destroyForcibly().waitFor();
            }
            collector.stop(0);
        }
    }

    private static boolean healthy(HttpClient http, int port) throws InterruptedException {
        try {
            return http.send(
                                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
