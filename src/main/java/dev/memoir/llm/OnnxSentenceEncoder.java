package dev.memoir.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Map;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

/**
 * A BERT sentence encoder (bge-small, MiniLM) on ONNX Runtime, one text per run, giving the vectors langchain4j's
 * encoder gives for the same model files. Like that one, it reads only as much of a text as the model's tokenizer
 * keeps (bge-small: 512 tokens; MiniLM: 128): memories longer than a passage are also embedded passage by passage
 * ({@link TextEmbedder}).
 *
 * <p>Why not langchain4j's own: it tokenises every text three times, and runs ONNX Runtime with its default
 * threads, which spin between runs. Embedding runs beside the import's and searches' own work (HTTP, JSON, the
 * database on the same cores), so spinning threads took CPU from it (docs/benchmarks.md#import-speed). Here a text
 * is tokenised once and a session's thread sleeps when idle.
 *
 * <p>Texts are run one at a time, not padded into batches: the models are dynamically quantised, so a batch
 * shares one quantisation scale and each text's vector would depend on what it was batched with.
 */
final class OnnxSentenceEncoder implements AutoCloseable {

    enum Pooling {
        /** The first ([CLS]) position's vector (bge). */
        CLS,
        /** The mean over all positions (MiniLM). */
        MEAN
    }

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final Pooling pooling;
    private final boolean typeIds;

    /** Each run on one ONNX Runtime thread: runs go side by side on their callers' threads. */
    OnnxSentenceEncoder(byte[] model, InputStream tokenizerJson, Pooling pooling) {
        try {
            this.environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            options.addConfigEntry("session.intra_op.allow_spinning", "0");
            this.session = environment.createSession(model, options);
            this.typeIds = session.getInputNames().contains("token_type_ids");
            this.tokenizer = HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of("padding", "false"));
        } catch (OrtException e) {
            throw new IllegalStateException("The embedding model could not be loaded: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.pooling = pooling;
    }

    float[] embed(String text) {
        return TextEmbedder.unitLength(run(tokenizer.encode(text, true, false).getIds()));
    }

    /** The most tokens of a text the model reads, [CLS] and [SEP] included. */
    int maxTokens() {
        return tokenizer.getMaxLength();
    }

    private float[] run(long[] ids) {
        long[] mask = new long[ids.length];
        Arrays.fill(mask, 1L);
        long[] shape = {1, ids.length};
        try (OnnxTensor inputIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
                OnnxTensor attention = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
                OnnxTensor types = OnnxTensor.createTensor(environment, LongBuffer.wrap(new long[ids.length]), shape);
                OrtSession.Result result = session.run(
                        typeIds
                                ? Map.of("input_ids", inputIds, "attention_mask", attention, "token_type_ids", types)
                                : Map.of("input_ids", inputIds, "attention_mask", attention))) {
            float[][] positions = ((float[][][]) result.get(0).getValue())[0];
            return pooling == Pooling.CLS ? positions[0] : mean(positions);
        } catch (OrtException e) {
            throw new IllegalStateException("The embedding model failed: " + e.getMessage(), e);
        }
    }

    private static float[] mean(float[][] positions) {
        float[] mean = new float[positions[0].length];
        for (float[] position : positions) {
            for (int d = 0; d < mean.length; d++) {
                mean[d] += position[d];
            }
        }
        for (int d = 0; d < mean.length; d++) {
            mean[d] /= positions.length;
        }
        return mean;
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException(e);
        }
        tokenizer.close();
    }
}
