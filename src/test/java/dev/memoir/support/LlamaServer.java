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
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * llama.cpp's own OpenAI-compatible server, serving the stand-in model the tests generate
 * ({@code src/test/llama/standin_model.py}: a llama-architecture GGUF with phi-3's vocabulary and chat template and
 * hand-set weights). The server is the one {@code scripts/llama-server.sh} builds and caches; scripts/test.sh hands
 * its folder over as {@code MEMOIR_TEST_LLAMA_HOME}, and the Python that writes the model (numpy and PyYAML) as
 * {@code MEMOIR_TEST_PYTHON}.
 */
public final class LlamaServer implements AutoCloseable {

    private static final Path WORK = Path.of("target", "llama");

    private final Process process;
    private final int port;
    private final int contextPerSlot;

    private LlamaServer(Process process, int port, int contextPerSlot) {
        this.process = process;
        this.port = port;
        this.contextPerSlot = contextPerSlot;
    }

    /**
     * Writes the stand-in model and starts a server with {@code slots} parallel slots of {@code contextPerSlot}
     * tokens each (-np and -c = slots × context), on 2 threads, serving the model as {@code alias}.
     */
    public static LlamaServer start(int contextPerSlot, int slots, String alias) {
        Path home = Path.of(required("MEMOIR_TEST_LLAMA_HOME"));
        Path server = home.resolve("bin/llama-server");
        if (!Files.isExecutable(server)) {
            throw new IllegalStateException(server + " is missing: run ./scripts/llama-server.sh, which builds it");
        }
        try {
            Files.createDirectories(WORK);
            Path model = WORK.resolve("standin-tiny.gguf");
            run(
                    List.of(
                            System.getenv().getOrDefault("MEMOIR_TEST_PYTHON", "python3"),
                            "src/test/llama/standin_model.py",
                            "--gguf-py",
                            home.resolve("src/gguf-py").toString(),
                            "--vocab",
                            home.resolve("src/models/ggml-vocab-phi-3.gguf").toString(),
                            "--out",
                            model.toString(),
                            "--shape",
                            "tiny"),
                    WORK.resolve("standin-model.log"));
            int port = freePort();
            Process process = new ProcessBuilder(
                            server.toString(),
                            "-m",
                            model.toString(),
                            "--alias",
                            alias,
                            "--host",
                            "127.0.0.1",
                            "--port",
                            Integer.toString(port),
                            "-c",
                            Integer.toString(contextPerSlot * slots),
                            "-np",
                            Integer.toString(slots),
                            "-t",
                            "2")
                    .redirectErrorStream(true)
                    .redirectOutput(WORK.resolve("llama-server.log").toFile())
                    .start();
            LlamaServer started = new LlamaServer(process, port, contextPerSlot);
            started.awaitHealthy();
            return started;
        } catch (IOException e) {
            throw new IllegalStateException("Could not start llama-server", e);
        }
    }

    /** The base URL, /v1 included, as Memoir's spring.ai.openai.base-url takes it. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port + "/v1";
    }

    public int contextPerSlot() {
        return contextPerSlot;
    }

    private void awaitHealthy() {
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("llama-server exited with " + process.exitValue() + "; see "
                        + WORK.resolve("llama-server.log"));
            }
            try {
                HttpResponse<String> health = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                process.waitFor(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        close();
        throw new IllegalStateException("llama-server did not become healthy within 60 s");
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(variable + " is not set: run the suite with ./scripts/test.sh, or set it "
                    + "to the folder ./scripts/llama-server.sh prints");
        }
        return value;
    }

    private static void run(List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
