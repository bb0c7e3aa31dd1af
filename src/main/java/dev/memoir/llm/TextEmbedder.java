package dev.memoir.llm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.ai.embedding.EmbeddingModel;

/**
 * Embeds memories and search queries. Retrieval models such as bge are trained with an instruction before the
 * query and none before the passage, so the two are embedded differently; memories record {@link #modelName()}
 * so that a change of model can be detected and repaired.
 *
 * <p>Query embeddings are cached by text: one chat turn searches with its message several times (each kind,
 * self-reflection's second search, the reranker's candidates), and for a user with a small memory the embedding
 * is most of a search's cost. The cache belongs to this embedder, so a change of model never reads an old vector.
 */
public final class TextEmbedder {

    private final EmbeddingModel model;
    private final String modelName;
    private final String queryInstruction;
    private final Map<String, float[]> queryCache;

    TextEmbedder(EmbeddingModel model, String modelName, String queryInstruction, int queryCacheSize) {
        this.model = model;
        this.modelName = modelName;
        this.queryInstruction = queryInstruction == null ? "" : queryInstruction;
        this.queryCache = queryCacheSize == 0 ? null : new LinkedHashMap<>(16, 0.75f, true) {
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
            return model.embed(queryInstruction + query);
        }
        synchronized (queryCache) {
            float[] cached = queryCache.get(query);
            if (cached != null) {
                return cached;
            }
        }
        // Embedded outside the lock: two threads may embed the same new query once each, which is harmless.
        float[] embedding = model.embed(queryInstruction + query);
        synchronized (queryCache) {
            queryCache.put(query, embedding);
        }
        return embedding;
    }

    public float[] embedDocument(String text) {
        return model.embed(text);
    }

    public List<float[]> embedDocuments(List<String> texts) {
        return texts.isEmpty() ? List.of() : model.embed(texts);
    }
}
