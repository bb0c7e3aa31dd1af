package dev.memoir.reranker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Learning on synthetic embeddings: for every query one candidate is the one the reply cites, and it relates to
 * the query through a fixed linear map that plain cosine similarity cannot see. REINFORCE on citation rewards
 * should teach the adaptation layer to put it on top.
 */
class RerankerLearningTest {

    private static final int DIMENSIONS = 24;
    private static final int CANDIDATES = 20;
    private static final int SHOWN = 5;
    private static final double TEMPERATURE = 0.1;

    private final SplittableRandom random = new SplittableRandom(7);
    private final float[][] hiddenMap = randomMatrix();

    private float[][] randomMatrix() {
        float[][] m = new float[DIMENSIONS][DIMENSIONS];
        for (float[] row : m) {
            for (int j = 0; j < DIMENSIONS; j++) {
                row[j] = (float) gaussian();
            }
        }
        return m;
    }

    private double gaussian() {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    private float[] unit(float[] v) {
        double norm = Math.sqrt(Arrays.stream(toDoubles(v)).map(x -> x * x).sum());
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }

    private static double[] toDoubles(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    private float[] randomUnit() {
        float[] v = new float[DIMENSIONS];
        for (int i = 0; i < DIMENSIONS; i++) {
            v[i] = (float) gaussian();
        }
        return unit(v);
    }

    /** A query and its candidates; {@code cited} is the position of the memory the reply uses. */
    private record Episode(float[] query, List<float[]> candidates, int cited) {}

    private Episode episode() {
        float[] query = randomUnit();
        float[] related = new float[DIMENSIONS];
        for (int i = 0; i < DIMENSIONS; i++) {
            for (int j = 0; j < DIMENSIONS; j++) {
                related[i] += hiddenMap[i][j] * query[j];
            }
        }
        List<float[]> candidates = new ArrayList<>();
        int cited = random.nextInt(CANDIDATES);
        for (int i = 0; i < CANDIDATES; i++) {
            candidates.add(i == cited ? unit(related) : randomUnit());
        }
        return new Episode(query, candidates, cited);
    }

    private double meanRankOfCited(RerankerModel model, List<Episode> episodes) {
        return episodes.stream()
                .mapToInt(e -> {
                    int[] ranking = RerankerModel.ranking(model.scores(e.query(), e.candidates()));
                    for (int rank = 0; rank < ranking.length; rank++) {
                        if (ranking[rank] == e.cited()) {
                            return rank + 1;
                        }
                    }
                    throw new IllegalStateException();
                })
                .average()
                .orElseThrow();
    }

    /** The mean reward of the replies the sampling policy would produce on these episodes. */
    private double meanReward(RerankerModel model, List<Episode> episodes) {
        SplittableRandom sampling = new SplittableRandom(11);
        return episodes.stream()
                .mapToDouble(e -> {
                    int[] shown = RerankerModel.gumbelTopK(
                            model.scores(e.query(), e.candidates()), SHOWN, TEMPERATURE, sampling);
                    return Arrays.stream(shown)
                            .mapToDouble(i -> i == e.cited() ? 1 : -1)
                            .average()
                            .orElseThrow();
                })
                .average()
                .orElseThrow();
    }

    @Test
    void citationRewardsTeachTheRerankerToRankTheCitedMemoryFirst() {
        List<Episode> evaluation = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            evaluation.add(episode());
        }
        RerankerModel model = RerankerModel.identity(DIMENSIONS);
        double untrainedRank = meanRankOfCited(model, evaluation);
        double untrainedReward = meanReward(model, evaluation);

        double baseline = 0;
        List<Double> rewardPerUpdate = new ArrayList<>();
        for (int update = 0; update < 300; update++) {
            RerankerModel.Gradient gradient = model.newGradient();
            double rewardSum = 0;
            int shownCount = 0;
            for (int b = 0; b < 8; b++) {
                Episode e = episode();
                double[] scores = model.scores(e.query(), e.candidates());
                double[] rewards = new double[CANDIDATES];
                for (int shown : RerankerModel.gumbelTopK(scores, SHOWN, TEMPERATURE, random)) {
                    rewards[shown] = shown == e.cited() ? 1 : -1;
                    rewardSum += rewards[shown];
                    shownCount++;
                }
                model.accumulateGradient(
                        new RerankerModel.Sample(e.query(), e.candidates(), rewards), baseline, TEMPERATURE, gradient);
            }
            model.apply(gradient, 0.05);
            double meanReward = rewardSum / shownCount;
            baseline = 0.9 * baseline + 0.1 * meanReward;
            rewardPerUpdate.add(meanReward);
        }
        double trainedRank = meanRankOfCited(model, evaluation);
        double trainedReward = meanReward(model, evaluation);

        assertThat(untrainedRank).isGreaterThan(7);
        assertThat(trainedRank).isLessThan(untrainedRank / 3);
        // Rewards lie in [-1, -0.6] per reply (one cited memory among five shown): -0.9 is chance.
        assertThat(trainedReward).isGreaterThan(untrainedReward + 0.15);
        double firstUpdates = rewardPerUpdate.subList(0, 5).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
        double lastUpdates = rewardPerUpdate.subList(250, 300).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
        assertThat(lastUpdates).isGreaterThan(firstUpdates);
        System.out.printf(
                "cited memory mean rank %.2f -> %.2f; mean reward %.3f -> %.3f%n",
                untrainedRank, trainedRank, untrainedReward, trainedReward);
    }

    @Test
    void aFreshRerankerRanksAsCosineRetrievalDoes() {
        Episode e = episode();
        double[] scores = RerankerModel.identity(DIMENSIONS).scores(e.query(), e.candidates());
        for (int i = 0; i < CANDIDATES; i++) {
            double cosine = 0;
            for (int d = 0; d < DIMENSIONS; d++) {
                cosine += e.query()[d] * e.candidates().get(i)[d];
            }
            assertThat(scores[i]).isCloseTo(cosine, Offset.offset(1e-5));
        }
    }

    @Test
    void weightsSurviveSerialisation() {
        RerankerModel model = RerankerModel.identity(4);
        RerankerModel.Gradient gradient = model.newGradient();
        model.accumulateGradient(
                new RerankerModel.Sample(
                        new float[] {1, 0, 0, 0},
                        List.of(new float[] {0, 1, 0, 0}, new float[] {0, 0, 1, 0}),
                        new double[] {1, -1}),
                0,
                0.1,
                gradient);
        model.apply(gradient, 0.1);
        assertThat(model.isIdentity()).isFalse();
        RerankerModel restored = RerankerModel.fromBytes(4, model.toBytes());
        float[] q = {0.5f, 0.5f, 0.5f, 0.5f};
        List<float[]> ms = List.of(new float[] {1, 0, 0, 0}, new float[] {0, 1, 0, 0});
        assertThat(restored.scores(q, ms)).containsExactly(model.scores(q, ms));
    }
}
