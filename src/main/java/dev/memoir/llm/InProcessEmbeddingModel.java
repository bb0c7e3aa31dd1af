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

/**
 * all-MiniLM-L6-v2 (quantised ONNX, shipped inside its Maven artifact) on ONNX Runtime, exposed as a Spring AI
 * {@link EmbeddingModel}. Memory search works with no network and costs a few milliseconds a sentence.
 */
class InProcessEmbeddingModel implements EmbeddingModel {

    private final AllMiniLmL6V2QuantizedEmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();

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
