package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

import dev.memoir.common.web.Observed;

class TextEmbedderTest {

    private static final UsageTeller NO_USAGE = new UsageTeller(List.of(), new TokenCounter());

    private static final PassageSplitter PASSAGES = new PassageSplitter(new TokenCounter(), 256, 32);

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
        TextEmbedder embedder =
                new TextEmbedder(model, "m", "Find: ", 8, PASSAGES, new Observed(ObservationRegistry.NOOP), NO_USAGE);

        float[] first = embedder.embedQuery("marathon");
        float[] second = embedder.embedQuery("marathon");

        assertThat(model.embedded).containsExactly("Find: marathon");
        assertThat(second).isEqualTo(first);
    }

    @Test
    void everyCallOfTheModelIsObservedByModelPurposeAndBatchSizeClassAndACachedQueryIsNot() {
        List<Observation.Context> observed = new ArrayList<>();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                observed.add(context);
            }
        });
        TextEmbedder embedder = new TextEmbedder(
                new RecordingModel(), "m", "Find: ", 8, PASSAGES, new Observed(observations), NO_USAGE);

        embedder.embedQuery("marathon");
        embedder.embedQuery("marathon");
        embedder.embedDocuments(Collections.nCopies(20, "a run"));

        assertThat(observed).extracting(Observation.Context::getName).containsOnly("memoir.embedding");
        assertThat(observed)
                .extracting(context -> context.getLowCardinalityKeyValues().stream()
                        .map(kv -> kv.getKey() + "=" + kv.getValue())
                        .toList())
                .containsExactly(
                        List.of(
                                "memoir.embedding.batch=1",
                                "memoir.embedding.model=m",
                                "memoir.embedding.purpose=query"),
                        List.of(
                                "memoir.embedding.batch=17-256",
                                "memoir.embedding.model=m",
                                "memoir.embedding.purpose=document"));
        assertThat(observed.get(1)
                        .getHighCardinalityKeyValue("memoir.embedding.texts")
                        .getValue())
                .isEqualTo("20");
    }

    @Test
    void theLeastRecentlyUsedQueryLeavesAFullCache() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder =
                new TextEmbedder(model, "m", "", 2, PASSAGES, new Observed(ObservationRegistry.NOOP), NO_USAGE);

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
        TextEmbedder embedder =
                new TextEmbedder(model, "m", "Find: ", 8, PASSAGES, new Observed(ObservationRegistry.NOOP), NO_USAGE);

        embedder.embedDocument("marathon");
        embedder.embedDocument("marathon");
        embedder.embedQuery("marathon");

        assertThat(model.embedded).containsExactly("marathon", "marathon", "Find: marathon");
    }

    @Test
    void aCacheSizeOfZeroEmbedsEveryQuery() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder =
                new TextEmbedder(model, "m", "", 0, PASSAGES, new Observed(ObservationRegistry.NOOP), NO_USAGE);

        embedder.embedQuery("a");
        embedder.embedQuery("a");

        assertThat(model.embedded).containsExactly("a", "a");
    }

    @Test
    void aTextWithinOnePassageIsEmbeddedWholeAndALongerOneInOverlappingPassagesStandingForItTogether() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder = new TextEmbedder(
                model,
                "m",
                "",
                0,
                new PassageSplitter(new TokenCounter(), 20, 5),
                new Observed(ObservationRegistry.NOOP),
                NO_USAGE);
        String shortText = "A short memory.";
        String longText =
                "one two three four five six seven eight nine ten ".repeat(5).strip();

        List<EmbeddedDocument> embedded = embedder.embedInPassages(List.of(shortText, longText));

        assertThat(embedded.get(0).passages()).isEmpty();
        assertThat(embedded.get(0).embedding()).containsExactly(shortText.length());
        List<EmbeddedDocument.Passage> passages = embedded.get(1).passages();
        assertThat(passages).hasSizeGreaterThanOrEqualTo(3);
        assertThat(passages.getFirst().start()).isZero();
        assertThat(passages.getLast().end()).isEqualTo(longText.length());
        for (int i = 1; i < passages.size(); i++) {
            assertThat(passages.get(i).start())
                    .as("overlap with the passage before")
                    .isLessThan(passages.get(i - 1).end())
                    .isGreaterThan(passages.get(i - 1).start());
        }
        // One batch: the short text whole, then the long one's passages, never the long one whole.
        assertThat(model.embedded).first().isEqualTo(shortText);
        assertThat(model.embedded).hasSize(1 + passages.size()).doesNotContain(longText);
        // The whole's vector is the passages' average (normalised: length 1 for one dimension).
        assertThat(embedded.get(1).embedding()).containsExactly(1.0f);
    }

    @Test
    void passagesOfZeroTokensEmbedEveryTextWhole() {
        RecordingModel model = new RecordingModel();
        TextEmbedder embedder = new TextEmbedder(
                model,
                "m",
                "",
                0,
                new PassageSplitter(new TokenCounter(), 0, 0),
                new Observed(ObservationRegistry.NOOP),
                NO_USAGE);
        String longText = "word ".repeat(2000).strip();

        EmbeddedDocument embedded = embedder.embedInPassages(List.of(longText)).getFirst();

        assertThat(embedded.passages()).isEmpty();
        assertThat(model.embedded).containsExactly(longText);
    }

    @Test
    void cosineOfParallelOrthogonalAndOppositeVectors() {
        assertThat(TextEmbedder.cosine(new float[] {1, 2}, new float[] {2, 4})).isCloseTo(1.0, within(1e-9));
        assertThat(TextEmbedder.cosine(new float[] {1, 0}, new float[] {0, 3})).isCloseTo(0.0, within(1e-9));
        assertThat(TextEmbedder.cosine(new float[] {1, 1}, new float[] {-1, -1}))
                .isCloseTo(-1.0, within(1e-9));
        assertThat(TextEmbedder.cosine(new float[] {0, 0}, new float[] {1, 1})).isZero();
    }
}
