package dev.memoir.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import org.springframework.ai.embedding.EmbeddingModel;

import dev.memoir.common.web.Observed;

/**
 * Embeds memories and search queries. Retrieval models such as bge are trained with an instruction before the
 * query and none before the passage, so the two are embedded differently; memories record {@link #modelName()}
 * so that a change of model can be detected and repaired.
 *
 * <p>Query embeddings are cached by text: one chat turn searches with its message several times (each kind,
 * self-reflection's second search, the reranker's candidates), and for a user with a small memory the embedding
 * is most of a search's cost. The cache belongs to this embedder, so a change of model never reads an old vector.
 *
 * <p>Memories to store can be embedded ahead of the write that stores them ({@link #prepare}), so that the write's
 * transaction, and the locks it holds, do not wait for the model: the write's {@link #embedInPassages} takes them.
 *
 * <p>Every call of the model (not a query answered from the cache) is one {@code memoir.embedding} observation,
 * tagged with the model, what is embedded (query or document) and the batch's size class; never with the texts.
 */
public final class TextEmbedder {

    private final EmbeddingModel model;
    private final String modelName;
    private final String queryInstruction;
    private final Map<String, float[]> queryCache;
    private final PassageSplitter passages;
    private final Observed observations;
    private final UsageTeller usage;
    // About 6 MB at 384 dimensions: a few full-size imports in flight at once.
    private final PreparedEmbeddings prepared = new PreparedEmbeddings(4096);

    TextEmbedder(
            EmbeddingModel model,
            String modelName,
            String queryInstruction,
            int queryCacheSize,
            PassageSplitter passages,
            Observed observations,
            UsageTeller usage) {
        this.model = model;
        this.observations = observations;
        this.usage = usage;
        this.modelName = modelName;
        this.passages = passages;
        this.queryInstruction = queryInstruction == null ? "" : queryInstruction;
        this.queryCache = queryCacheSize == 0
                ? null
                : new LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                        return size() > queryCacheSize;
                    }
                };
    }

    public String modelName() {
        return modelName;
    }

    public int dimensions() {
        return model.dimensions();
    }

    /** The query's embedding; callers must not modify the array (it may be shared through the cache). */
    public float[] embedQuery(String query) {
        if (queryCache == null) {
            return embedOneQuery(query);
        }
        synchronized (queryCache) {
            float[] cached = queryCache.get(query);
            if (cached != null) {
                return cached;
            }
        }
        // Embedded outside the lock: two threads may embed the same new query once each, which is harmless.
        float[] embedding = embedOneQuery(query);
        synchronized (queryCache) {
            queryCache.put(query, embedding);
        }
        return embedding;
    }

    public float[] embedDocument(String text) {
        return observed("document", List.of(text), () -> model.embed(text));
    }

    public List<float[]> embedDocuments(List<String> texts) {
        return texts.isEmpty() ? List.of() : observed("document", texts, () -> model.embed(texts));
    }

    private float[] embedOneQuery(String query) {
        String instructed = queryInstruction + query;
        return observed("query", List.of(instructed), () -> model.embed(instructed));
    }

    /**
     * One call of the model as an observation (the number of texts goes to the span, its size class to metrics),
     * and as the usage of one batch.
     */
    private <T> T observed(String purpose, List<String> texts, Supplier<T> embedding) {
        long started = System.nanoTime();
        boolean failed = true;
        try {
            T embedded = observations
                    .observation(Observed.Name.EMBEDDING)
                    .lowCardinalityKeyValue("memoir.embedding.model", modelName)
                    .lowCardinalityKeyValue("memoir.embedding.purpose", purpose)
                    .lowCardinalityKeyValue("memoir.embedding.batch", batchClass(texts.size()))
                    .highCardinalityKeyValue("memoir.embedding.texts", Integer.toString(texts.size()))
                    .observe(embedding);
            failed = false;
            return embedded;
        } finally {
            usage.embedded(purpose, modelName, texts, Duration.ofNanos(System.nanoTime() - started), failed);
        }
    }

    /** A batch's size as a few classes, so that the timer's series stay few: 1, 2-16, 17-256, 257+. */
    private static String batchClass(int texts) {
        if (texts <= 1) {
            return "1";
        }
        return texts <= 16 ? "2-16" : texts <= 256 ? "17-256" : "257+";
    }

    /**
     * Memories to store, each embedded passage by passage, all passages of all texts in one batch. A text within
     * one passage is embedded whole, as by {@link #embedDocument}. A longer one keeps each passage's vector, and
     * stands for the whole by their average weighted by size: the model reads only a text's first 512 tokens
     * (bge-small), so this vector, unlike the text's own, stands for all of it, and costs no second pass over it.
     */
    public List<EmbeddedDocument> embedInPassages(List<String> texts) {
        List<EmbeddedDocument> documents = new ArrayList<>(prepared.take(texts));
        List<Integer> missing = IntStream.range(0, texts.size())
                .filter(i -> documents.get(i) == null)
                .boxed()
                .toList();
        List<EmbeddedDocument> computed =
                embedNowInPassages(missing.stream().map(texts::get).toList());
        for (int i = 0; i < missing.size(); i++) {
            documents.set(missing.get(i), computed.get(i));
        }
        return documents;
    }

    /**
     * Embeds memory texts before they are written, outside any transaction: {@link #embedInPassages} of the same
     * texts then takes them instead of calling the model. Each prepared text is taken once.
     */
    public void prepare(List<String> texts) {
        List<String> missing =
                texts.stream().filter(text -> !prepared.has(text)).distinct().toList();
        List<EmbeddedDocument> embedded = embedNowInPassages(missing);
        for (int i = 0; i < missing.size(); i++) {
            prepared.put(missing.get(i), embedded.get(i));
        }
    }

    /** Whether {@link #prepare} has embedded this text and no write has taken it yet. */
    boolean isPrepared(String text) {
        return prepared.has(text);
    }

    /** How alike two texts are: the cosine similarity of their embeddings. */
    public double similarity(String a, String b) {
        List<float[]> both = embedDocuments(List.of(a, b));
        return cosine(both.get(0), both.get(1));
    }

    /** The cosine similarity of two vectors; 0 when either is zero. */
    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            normA += a[i] * a[i];
            normB += b[i] * b[i];
        }
        if (normA == 0 || normB == 0) {
            return 0;
        }
        return dot / (Math.sqrt(normA) * Math.sqrt(normB));
    }

    private List<EmbeddedDocument> embedNowInPassages(List<String> texts) {
        List<List<PassageSplitter.Span>> spans =
                texts.stream().map(passages::split).toList();
        List<String> windows = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            for (PassageSplitter.Span span : spans.get(i)) {
                windows.add(
                        spans.get(i).size() == 1 ? texts.get(i) : texts.get(i).substring(span.start(), span.end()));
            }
        }
        List<float[]> vectors = embedDocuments(windows);
        List<EmbeddedDocument> documents = new ArrayList<>(texts.size());
        int next = 0;
        for (List<PassageSplitter.Span> textSpans : spans) {
            if (textSpans.size() == 1) {
                documents.add(new EmbeddedDocument(vectors.get(next++), List.of()));
                continue;
            }
            List<EmbeddedDocument.Passage> found = new ArrayList<>(textSpans.size());
            float[] whole = new float[vectors.get(next).length];
            for (PassageSplitter.Span span : textSpans) {
                float[] vector = vectors.get(next++);
                found.add(new EmbeddedDocument.Passage(span.start(), span.end(), vector));
                for (int d = 0; d < whole.length; d++) {
                    whole[d] += vector[d] * span.tokens();
                }
            }
            documents.add(new EmbeddedDocument(unitLength(whole), List.copyOf(found)));
        }
        return documents;
    }

    /** The vector scaled, in place, to length 1 (a zero vector stays zero), as cosine search expects. */
    static float[] unitLength(float[] vector) {
        double norm = 0;
        for (float value : vector) {
            norm += value * value;
        }
        float scale = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
        for (int d = 0; d < vector.length; d++) {
            vector[d] *= scale;
        }
        return vector;
    }
}
