package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

class TextEmbedderTest {

    /** Records what it was asked to embed; a text's vector is its length, so answers can be told apart. */
    static final class RecordingModel implements EmbeddingModel {
        final List<String> embedded = new ArrayList<>();

        @Override
        public EmbeddingResponse call(EmbeddingRequest request) {
            List<Embedding> results = new ArrayList<>();
            for (String text : request.getInstructions()) {
                embedded.add(text);
                results.add(new Embedding(new float[] {text.length()}, results.size()));
            }
            return new EmbeddingResponse(results);
        }

        @Override
        public float[] embed(Document document) {
            return embed(document.getText());
        }

        @Override
        public int dimensions() {
            return 1;
        }
    }

    @Test
    void aRepeatedQueryIsEmbeddedOnceWithItsInstruction() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder = new TextEmbedder(model, "m", "Find: ", 8);

        float[] first = embedder.embedQuery("marathon");
        float[] second = embedder.embedQuery("marathon");

        assertThat(model.embedded).containsExactly("Find: marathon");
        assertThat(second).isEqualTo(first);
    }

    @Test
    void theLeastRecentlyUsedQueryLeavesAFullCache() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder = new TextEmbedder(model, "m", "", 2);

        embedder.embedQuery("a");
        embedder.embedQuery("bb");
        embedder.embedQuery("a");
        embedder.embedQuery("ccc");
        embedder.embedQuery("a");
        embedder.embedQuery("bb");

        assertThat(model.embedded).containsExactly("a", "bb", "ccc", "bb");
    }

    @Test
    void documentsAreNeverCachedNorGivenTheQueryInstruction() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder = new TextEmbedder(model, "m", "Find: ", 8);

        embedder.embedDocument("marathon");
        embedder.embedDocument("marathon");
        embedder.embedQuery("marathon");

        assertThat(model.embedded).containsExactly("marathon", "marathon", "Find: marathon");
    }

    @Test
    void aCacheSizeOfZeroEmbedsEveryQuery() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder = new TextEmbedder(model, "m", "", 0);

        embedder.embedQuery("a");
        embedder.embedQuery("a");

        assertThat(model.embedded).containsExactly("a", "a");
    }
}
