package dev.memoir.llm;

import java.util.List;

import org.springframework.ai.embedding.EmbeddingModel;

/**
 * Embeds memories and search queries. Retrieval models such as bge are trained with an instruction before the
 * query and none before the passage, so the two are embedded differently; memories record {@link #modelName()}
 * so that a change of model can be detected and repaired.
 */
public final class TextEmbedder {

    private final EmbeddingModel model;
    private final String modelName;
    private final String queryInstruction;

    TextEmbedder(EmbeddingModel model, String modelName, String queryInstruction) {
        this.model = model;
        this.modelName = modelName;
        this.queryInstruction = queryInstruction == null ? "" : queryInstruction;
    }

    public String modelName() {
        return modelName;
    }

    public int dimensions() {
        return model.dimensions();
    }

    public float[] embedQuery(String query) {
        return model.embed(queryInstruction + query);
    }

    public float[] embedDocument(String text) {
        return model.embed(text);
    }

    public List<float[]> embedDocuments(List<String> texts) {
        return texts.isEmpty() ? List.of() : model.embed(texts);
    }
}
