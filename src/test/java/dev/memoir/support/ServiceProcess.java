package dev.memoir.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import dev.memoir.MemoirApplication;

/**
 * Memoir in a JVM of its own, as a deployment apart ({@link SeparateDeployment}: a database schema of its own, the
 * tests' model server): for what only a process shows, its environment variables or its heap limit. Its output goes
 * to a log under {@code target/}. Close it when done: it is stopped as a service manager stops it (SIGTERM).
 */
public final class ServiceProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private ServiceProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts Memoir in schema {@code schema} (dropped first) with these JVM options, settings and environment, and
     * waits until it answers its health check.
     */
    public static ServiceProcess start(
            String schema, List<String> jvmOptions, Map<String, String> settings, Map<String, String> environment)
            throws IOException {
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MemoirApplication.class.getName()));
        Map<String, String> all = new java.util.LinkedHashMap<>(settings);
        all.put("server.port", Integer.toString(port));
        command.addAll(SeparateDeployment.processArguments(schema, all));
        Path log = Files.createDirectories(Path.of("target")).resolve(schema + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        ServiceProcess service = new ServiceProcess(builder.start(), port, log);
        HttpClient http = HttpClient.newHttpClient();
        Awaitility.await("Memoir started (" + log + ")")
                .atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    if (!service.process.isAlive()) {
                        throw new IllegalStateException("Memoir stopped while starting: see " + log);
                    }
                    return service.healthy(http);
                });
        return service;
    }

    public Api api() {
        return new Api(port);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The process's output so far. */
    public String log() throws IOException {
        return Files.readString(log);
    }

    /** Whether it answers its health check with 200. */
    public boolean healthy(HttpClient http) throws InterruptedException {
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

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
