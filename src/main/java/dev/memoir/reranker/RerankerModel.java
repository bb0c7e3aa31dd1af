package dev.memoir.reranker;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * RMM's reranker in plain arithmetic: query and memory embeddings pass through a linear adaptation
 * with a residual connection (q' = q + Wq q, m' = m + Wm m), each memory scores q'·m', and a softmax over the
 * candidates (at temperature tau) is the policy that REINFORCE trains. Both maps start at zero, so a fresh
 * reranker is the identity and ranks exactly as cosine retrieval does (embeddings are unit length).
 */
final class RerankerModel {

    private final int dimensions;
    private final float[] wq;
    private final float[] wm;

    private RerankerModel(int dimensions, float[] wq, float[] wm) {
        this.dimensions = dimensions;
        this.wq = wq;
        this.wm = wm;
    }

    static RerankerModel identity(int dimensions) {
        return new RerankerModel(dimensions, new float[dimensions * dimensions], new float[dimensions * dimensions]);
    }

    int dimensions() {
        return dimensions;
    }

    RerankerModel copy() {
        return new RerankerModel(dimensions, wq.clone(), wm.clone());
    }

    boolean isIdentity() {
        for (int i = 0; i < wq.length; i++) {
            if (wq[i] != 0 || wm[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** x + W x. */
    private float[] adapt(float[] w, float[] x) {
        float[] out = x.clone();
        for (int row = 0; row < dimensions; row++) {
            double sum = 0;
            int offset = row * dimensions;
            for (int col = 0; col < dimensions; col++) {
                sum += w[offset + col] * x[col];
            }
            out[row] += (float) sum;
        }
        return out;
    }

    double[] scores(float[] query, List<float[]> memories) {
        float[] q = adapt(wq, query);
        double[] scores = new double[memories.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = dot(q, adapt(wm, memories.get(i)));
        }
        return scores;
    }

    /** Candidate positions by score, best first: the serving order. */
    static int[] ranking(double[] scores) {
        Integer[] order = new Integer[scores.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
        return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    }

    /**
     * K positions drawn without replacement from softmax(scores / tau) by the Gumbel top-K trick: perturb each
     * scaled score with Gumbel noise and keep the K largest.
     */
    static int[] gumbelTopK(double[] scores, int k, double temperature, RandomGenerator random) {
        double[] keys = new double[scores.length];
        for (int i = 0; i < keys.length; i++) {
            double u = Math.max(random.nextDouble(), Double.MIN_NORMAL);
            keys[i] = scores[i] / temperature - Math.log(-Math.log(u));
        }
        return Arrays.copyOf(ranking(keys), Math.min(k, scores.length));
    }

    static double[] softmax(double[] scores, double temperature) {
        double max = Arrays.stream(scores).max().orElse(0);
        double[] p = new double[scores.length];
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            p[i] = Math.exp((scores[i] - max) / temperature);
            sum += p[i];
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= sum;
        }
        return p;
    }

    /**
     * Accumulates the REINFORCE gradient of one reply into {@code gradient}: the objective is
     * sum over shown memories of (reward - baseline) * log softmax(scores / tau). With c_j its derivative by s_j,
     * dJ/dWq = (sum_j c_j m'_j) q^T and dJ/dWm = q' (sum_j c_j m_j)^T.
     */
    void accumulateGradient(Sample sample, double baseline, double temperature, Gradient gradient) {
        float[] q = sample.query();
        float[] qAdapted = adapt(wq, q);
        List<float[]> memories = sample.memories();
        double[] scores = new double[memories.size()];
        float[][] adapted = new float[memories.size()][];
        for (int j = 0; j < scores.length; j++) {
            adapted[j] = adapt(wm, memories.get(j));
            scores[j] = dot(qAdapted, adapted[j]);
        }
        double[] p = softmax(scores, temperature);
        double advantageSum = 0;
        double[] c = new double[scores.length];
        for (int j = 0; j < scores.length; j++) {
            if (sample.rewards()[j] != 0) {
                double advantage = sample.rewards()[j] - baseline;
                c[j] += advantage;
                advantageSum += advantage;
            }
        }
        double[] sumAdapted = new double[dimensions];
        double[] sumRaw = new double[dimensions];
        for (int j = 0; j < scores.length; j++) {
            double cj = (c[j] - p[j] * advantageSum) / temperature;
            if (cj == 0) {
                continue;
            }
            float[] raw = memories.get(j);
            for (int a = 0; a < dimensions; a++) {
                sumAdapted[a] += cj * adapted[j][a];
                sumRaw[a] += cj * raw[a];
            }
        }
        for (int row = 0; row < dimensions; row++) {
            int offset = row * dimensions;
            for (int col = 0; col < dimensions; col++) {
                gradient.wq[offset + col] += sumAdapted[row] * q[col];
                gradient.wm[offset + col] += qAdapted[row] * sumRaw[col];
            }
        }
        gradient.samples++;
    }

    /** Gradient ascent on the batch's mean gradient. */
    void apply(Gradient gradient, double learningRate) {
        if (gradient.samples == 0) {
            return;
        }
        double step = learningRate / gradient.samples;
        for (int i = 0; i < wq.length; i++) {
            wq[i] += (float) (step * gradient.wq[i]);
            wm[i] += (float) (step * gradient.wm[i]);
        }
    }

    Gradient newGradient() {
        return new Gradient(dimensions);
    }

    byte[] toBytes() {
        ByteBuffer buffer = ByteBuffer.allocate(8 * wq.length).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(wq).put(wm);
        return buffer.array();
    }

    static RerankerModel fromBytes(int dimensions, byte[] bytes) {
        if (bytes == null) {
            return identity(dimensions);
        }
        var floats = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        float[] wq = new float[dimensions * dimensions];
        float[] wm = new float[dimensions * dimensions];
        floats.get(wq).get(wm);
        return new RerankerModel(dimensions, wq, wm);
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    /**
     * One reply as training data: the query, every candidate, and a reward per candidate (+1 cited, -1 shown
     * but not cited, 0 not shown).
     */
    record Sample(float[] query, List<float[]> memories, double[] rewards) {}

    static final class Gradient {
        private final double[] wq;
        private final double[] wm;
        private int samples;

        private Gradient(int dimensions) {
            this.wq = new double[dimensions * dimensions];
            this.wm = new double[dimensions * dimensions];
        }
    }
}
