package dev.memoir.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * A small sentence-embedding model (quantised ONNX, shipped inside langchain4j's Maven artifacts) on ONNX Runtime,
 * exposed as a Spring AI {@link EmbeddingModel}: memory search works with no network and costs milliseconds a
 * sentence. bge-small-en-v1.5 is the default because it ranks the right dialogue turn far better than
 * all-MiniLM-L6-v2 at the same size (see docs/benchmarks.md).
 *
 * <p>One text runs on one thread: a lone text (a search query) on the caller's, several (an import, a memory
 * write) side by side on {@code threads} embedding threads, one per core by default. The model's own threads
 * would make a lone short text no faster and keep cores busy that the rest of the request needs.
 */
class InProcessEmbeddingModel implements EmbeddingModel, AutoCloseable {

    static final String BGE_SMALL = "bge-small-en-v1.5";
    static final String MINILM = "all-minilm-l6-v2";

    private final OnnxSentenceEncoder encoder;
    private final ExecutorService threads;

    InProcessEmbeddingModel(String name, int threads) {
        this.encoder = switch (name) {
            case BGE_SMALL -> encoder("bge-small-en-v1.5-q", OnnxSentenceEncoder.Pooling.CLS);
            case MINILM -> encoder("all-minilm-l6-v2-q", OnnxSentenceEncoder.Pooling.MEAN);
            default ->
                throw new IllegalStateException("memoir.embedding.model '" + name
                        + "' is not an in-process model; choose " + BGE_SMALL + " or " + MINILM);
        };
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "embedding-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private static OnnxSentenceEncoder encoder(String files, OnnxSentenceEncoder.Pooling pooling) {
        ClassLoader loader = InProcessEmbeddingModel.class.getClassLoader();
        try (InputStream model = loader.getResourceAsStream(files + ".onnx");
                InputStream tokenizer = loader.getResourceAsStream(files + "-tokenizer.json")) {
            if (model == null || tokenizer == null) {
                throw new IllegalStateException("The embedding model's files " + files + " are not on the class path");
            }
            return new OnnxSentenceEncoder(model.readAllBytes(), tokenizer, pooling);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<String> texts = request.getInstructions();
        List<Embedding> results = new ArrayList<>(texts.size());
        if (texts.size() == 1) {
            results.add(new Embedding(encoder.embed(texts.getFirst()), 0));
            return new EmbeddingResponse(results);
        }
        List<Future<float[]>> running = texts.stream()
                .map(text -> threads.submit(() -> encoder.embed(text)))
                .toList();
        try {
            for (int i = 0; i < running.size(); i++) {
                results.add(new Embedding(running.get(i).get(), i));
            }
        } catch (InterruptedException e) {
            running.forEach(future -> future.cancel(true));
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while embedding", e);
        } catch (ExecutionException e) {
            running.forEach(future -> future.cancel(true));
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
        return new EmbeddingResponse(results);
    }

    @Override
    public float[] embed(Document document) {
        return encoder.embed(document.getText());
    }

    /** The most tokens of a text the model reads (its tokenizer cuts the rest off). */
    int maxTokens() {
        return encoder.maxTokens();
    }

    @Override
    public int dimensions() {
        return 384;
    }

    @Override
    public void close() {
        threads.shutdownNow();
        encoder.close();
    }
}
