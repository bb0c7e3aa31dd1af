package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The in-process model gives the vectors langchain4j's encoder gives for the same model files, for a lone text, for
 * texts embedded side by side, and for a text longer than the model reads (bge-small's first 512 tokens, MiniLM's 128), so that memories
 * embedded before it and after it are found alike.
 */
class InProcessEmbeddingModelTest {

    private static InProcessEmbeddingModel bge;

    @BeforeAll
    static void load() {
        bge = new InProcessEmbeddingModel(InProcessEmbeddingModel.BGE_SMALL, 2);
    }

    @AfterAll
    static void close() {
        bge.close();
    }

    private static final String LONG_ANSWER = IntStream.range(0, 90)
            .mapToObj(i -> "Step " + i + ": knead the dough for sourdough bread, unquestionably the hardest part.")
            .reduce((a, b) -> a + " " + b)
            .orElseThrow();

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int d = 0; d < a.length; d++) {
            dot += a[d] * b[d];
        }
        return dot;
    }

    @Test
    void bgeVectorsAreLangchain4jsForShortAndOverlongTexts() {
        BgeSmallEnV15QuantizedEmbeddingModel reference = new BgeSmallEnV15QuantizedEmbeddingModel();
        for (String text : List.of("User: I adopted a corgi puppy named Sage last week.", "Hi", LONG_ANSWER)) {
            assertThat(cosine(bge.embed(text), reference.embed(text).content().vector()))
                    .as(text)
                    .isGreaterThan(0.99999);
        }
    }

    @Test
    void miniLmVectorsAreLangchain4jsForShortAndOverlongTexts() {
        AllMiniLmL6V2QuantizedEmbeddingModel reference = new AllMiniLmL6V2QuantizedEmbeddingModel();
        try (InProcessEmbeddingModel minilm = new InProcessEmbeddingModel(InProcessEmbeddingModel.MINILM, 1)) {
            for (String text : List.of("Assistant: Paris is lovely in May.", LONG_ANSWER)) {
                assertThat(cosine(
                                minilm.embed(text),
                                reference.embed(text).content().vector()))
                        .as(text)
                        .isGreaterThan(0.99999);
            }
        }
    }

    @Test
    void textsEmbeddedSideBySideComeBackInOrderWithTheirOwnVectors() {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            texts.add("Turn " + i + ": " + (i % 2 == 0 ? "we hiked the coastal trail" : "I baked rye bread")
                    + " on day " + i);
        }

        List<float[]> together = bge.embed(texts);

        for (int i = 0; i < texts.size(); i++) {
            assertThat(together.get(i)).as(texts.get(i)).isEqualTo(bge.embed(texts.get(i)));
        }
    }
}
