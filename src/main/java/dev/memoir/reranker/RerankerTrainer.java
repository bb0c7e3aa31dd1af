package dev.memoir.reranker;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryStore;
import dev.memoir.tenant.TenantId;

/**
 * RMM's retrospective reflection, learning side: online REINFORCE on stored feedback, a batch per update, one
 * tenant's reranker at a time under a row lock, so that several replicas share one model. Memories deleted since
 * a reply are left out of its sample.
 */
@Service
class RerankerTrainer {

    private final RerankerWeightsRepository weights;
    private final RerankerFeedbackRepository feedback;
    private final MemoryStore store;
    private final TransactionTemplate transaction;
    private final RerankerProperties properties;

    RerankerTrainer(
            RerankerWeightsRepository weights,
            RerankerFeedbackRepository feedback,
            MemoryStore store,
            TransactionTemplate transaction,
            RerankerProperties properties) {
        this.weights = weights;
        this.feedback = feedback;
        this.store = store;
        this.transaction = transaction;
        this.properties = properties;
    }

    /** Trains while a full batch of feedback is waiting. */
    void train(UUID tenantId) {
        while (Boolean.TRUE.equals(transaction.execute(status -> trainOneBatch(tenantId)))) {
            // one update per transaction
        }
    }

    private boolean trainOneBatch(UUID tenantId) {
        List<RerankerFeedback> batch = feedback.findByTenantIdAndTrainedAtIsNullOrderByCreatedAtAsc(
                tenantId, Limit.of(properties.batchSize()));
        if (batch.size() < properties.batchSize()) {
            return false;
        }
        int dimensions = batch.getFirst().getQueryEmbedding().length;
        weights.createIfAbsent(tenantId, dimensions);
        RerankerWeights stored = weights.lock(tenantId).orElseThrow();
        // Re-read under the lock: another worker may have trained on these rows meanwhile.
        batch = feedback.findByTenantIdAndTrainedAtIsNullOrderByCreatedAtAsc(
                tenantId, Limit.of(properties.batchSize()));
        if (batch.size() < properties.batchSize()) {
            return false;
        }
        RerankerModel model =
                stored.getDimensions() == dimensions ? stored.model() : RerankerModel.identity(dimensions);
        RerankerModel.Gradient gradient = model.newGradient();
        double rewardSum = 0;
        for (RerankerFeedback reply : batch) {
            RerankerModel.Sample sample = sample(tenantId, reply);
            if (sample != null) {
                model.accumulateGradient(sample, stored.getBaseline(), properties.temperature(), gradient);
            }
            rewardSum += reply.meanReward();
            reply.trained();
        }
        model.apply(gradient, properties.learningRate());
        double momentum = properties.baselineMomentum();
        double baseline =
                momentum == 0 ? 0 : momentum * stored.getBaseline() + (1 - momentum) * rewardSum / batch.size();
        stored.learned(model, baseline);
        return true;
    }

    /** The reply as a training sample: +1 for cited memories, -1 for shown ones not cited, 0 for the rest. */
    private RerankerModel.Sample sample(UUID tenantId, RerankerFeedback reply) {
        Map<UUID, float[]> embeddings = store.embeddings(new TenantId(tenantId), reply.getCandidateIds());
        List<UUID> present =
                reply.getCandidateIds().stream().filter(embeddings::containsKey).toList();
        if (present.isEmpty() || reply.getShownIds().isEmpty()) {
            return null;
        }
        double[] rewards = new double[present.size()];
        for (int i = 0; i < present.size(); i++) {
            UUID id = present.get(i);
            rewards[i] =
                    reply.getCitedIds().contains(id) ? 1 : reply.getShownIds().contains(id) ? -1 : 0;
        }
        return new RerankerModel.Sample(
                reply.getQueryEmbedding(), present.stream().map(embeddings::get).toList(), rewards);
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        OneTimeTask<Void> rerankerTrainingTask(Jobs jobs, RerankerTrainer trainer) {
            return jobs.task(Reranker.TRAINING, id -> trainer.train(UUID.fromString(id)));
        }
    }
}
