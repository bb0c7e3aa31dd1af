import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

/**
 * The physical limit of an import on this machine: bge-small-en-v1.5 (quantised, ONNX Runtime) embedding exactly
 * the texts an import embedded (each history memory whole, or its passages), batch by batch as the import's POSTs
 * sent them, with nothing else running: no HTTP, no JSON, no database. Run by bench/retrieval/run.sh import.
 *
 *   java -cp CLASSPATH EmbedLimit.java BATCHES_FILE TURNS threads=N|langchain4j
 *
 * BATCHES_FILE holds one batch per line, its texts separated by the unit separator (U+001F). threads=N runs each
 * text on one ONNX Runtime thread, N texts side by side (the service's way); langchain4j runs its embedAll with
 * its defaults (the service's way before). Prints one JSON line.
 */
public class EmbedLimit {

    /** The tokens the encoder read (the service's way only: langchain4j's does not say). */
    static final AtomicLong TOKENS = new AtomicLong();

    public static void main(String[] args) throws Exception {
        List<List<String>> batches = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            batches.add(List.of(line.split("\u001f", -1)));
        }
        int turns = Integer.parseInt(args[1]);
        String how = args[2];
        Embedder embedder = how.equals("langchain4j") ? langchain4j() : sideBySide(Integer.parseInt(how.substring(8)));
        // Warm up on the first batches, as a running service is.
        for (int i = 0; i < Math.min(10, batches.size()); i++) {
            embedder.embed(batches.get(i));
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        TOKENS.set(0);
        long start = System.nanoTime();
        int texts = 0;
        for (List<String> batch : batches) {
            texts += embedder.embed(batch);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (os.getProcessCpuTime() - cpu) / 1e9;
        System.out.printf("{\"how\": \"%s\", \"turns\": %d, \"texts\": %d, \"seconds\": %.2f, \"turnsPerSecond\": %.1f,"
                + " \"tokens\": %d, \"tokensPerSecond\": %.0f, \"cpuSeconds\": %.1f, \"cores\": %.2f}%n", how, turns,
                texts, seconds, turns / seconds, TOKENS.get(), TOKENS.get() / seconds, cpuSeconds, cpuSeconds / seconds);
        System.exit(0);
    }

    interface Embedder {
        int embed(List<String> texts) throws Exception;
    }

    static Embedder langchain4j() {
        BgeSmallEnV15QuantizedEmbeddingModel model = new BgeSmallEnV15QuantizedEmbeddingModel();
        return texts -> model.embedAll(texts.stream().map(TextSegment::from).toList()).content().size();
    }

    static Embedder sideBySide(int threads) throws Exception {
        OrtEnvironment environment = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(1);
        options.setInterOpNumThreads(1);
        options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
        options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
        options.addConfigEntry("session.intra_op.allow_spinning", "0");
        ClassLoader loader = EmbedLimit.class.getClassLoader();
        OrtSession session = environment.createSession(
                loader.getResourceAsStream("bge-small-en-v1.5-q.onnx").readAllBytes(), options);
        HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(
                loader.getResourceAsStream("bge-small-en-v1.5-q-tokenizer.json"), Map.of("padding", "false"));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        return texts -> {
            List<Future<float[]>> running = new ArrayList<>();
            for (String text : texts) {
                running.add(pool.submit(() -> {
                    long[] ids = tokenizer.encode(text, true, false).getIds();
                    TOKENS.addAndGet(ids.length);
                    long[] mask = new long[ids.length];
                    Arrays.fill(mask, 1L);
                    long[] shape = {1, ids.length};
                    try (OnnxTensor i = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
                            OnnxTensor m = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
                            OnnxTensor t = OnnxTensor.createTensor(environment, LongBuffer.wrap(new long[ids.length]),
                                    shape);
                            OrtSession.Result result = session.run(
                                    Map.of("input_ids", i, "attention_mask", m, "token_type_ids", t))) {
                        return ((float[][][]) result.get(0).getValue())[0][0];
                    }
                }));
            }
            for (Future<float[]> future : running) {
                future.get();
            }
            return running.size();
        };
    }
}
