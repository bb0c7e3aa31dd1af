package dev.memoir.llm;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

/**
 * A small sentence-embedding model (quantised ONNX, shipped inside its Maven artifact) on ONNX Runtime, exposed
 * as a Spring AI {@link EmbeddingModel}: memory search works with no network and costs milliseconds a sentence.
 * bge-small-en-v1.5 is the default because it ranks the right dialogue turn far better than all-MiniLM-L6-v2 at
 * the same size (see docs/benchmarks.md).
 */
class InProcessEmbeddingModel implements EmbeddingModel {

    static final String BGE_SMALL = "bge-small-en-v1.5";
    static final String MINILM = "all-minilm-l6-v2";

    private final dev.langchain4j.model.embedding.EmbeddingModel model;

    InProcessEmbeddingModel(String name) {
        this.model = switch (name) {
            case BGE_SMALL -> new BgeSmallEnV15QuantizedEmbeddingModel();
            case MINILM -> new AllMiniLmL6V2QuantizedEmbeddingModel();
            default -> throw new IllegalStateException("memoir.embedding.model '" + name
                    + "' is not an in-process model; choose " + BGE_SMALL + " or " + MINILM);
        };
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<TextSegment> segments = request.getInstructions().stream().map(TextSegment::from).toList();
        var embeddings = model.embedAll(segments).content();
        List<Embedding> results = new ArrayList<>(embeddings.size());
        for (int i = 0; i < embeddings.size(); i++) {
            results.add(new Embedding(embeddings.get(i).vector(), i));
        }
        return new EmbeddingResponse(results);
    }

    @Override
    public float[] embed(Document document) {
        return model.embed(document.getText()).content().vector();
    }

    @Override
    public int dimensions() {
        return 384;
    }
}
