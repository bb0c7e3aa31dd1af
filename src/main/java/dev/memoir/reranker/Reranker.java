package dev.memoir.reranker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.random.RandomGenerator;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.ScoredMemory;
import dev.memoir.tenant.TenantId;

/**
 * RMM's retrospective reflection, serving side: orders retrieval's candidates with the tenant's
 * learned reranker and passes the top K on (sampled by Gumbel top-K while learning), then stores what the reply
 * cited as feedback and queues training once a batch has gathered.
 */
@Service
public class Reranker {

    static final TaskDescriptor<Void> TRAINING = TaskDescriptor.of("reranker-training");

    private final RerankerWeightsRepository weights;
    private final RerankerFeedbackRepository feedback;
    private final MemoryStore store;
    private final Jobs jobs;
    private final RerankerProperties properties;
    private final RandomGenerator random = RandomGenerator.getDefault();
    // The most recently used tenants' decoded weights (about 1.2 MB each at 384 dimensions); others are read again.
    private final Map<UUID, Loaded> cache;

    Reranker(
            RerankerWeightsRepository weights,
            RerankerFeedbackRepository feedback,
            MemoryStore store,
            Jobs jobs,
            RerankerProperties properties) {
        this.weights = weights;
        this.feedback = feedback;
        this.store = store;
        this.jobs = jobs;
        this.properties = properties;
        int capacity = properties.cachedTenants();
        this.cache = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, Loaded> eldest) {
                return size() > capacity;
            }
        });
    }

    private record Loaded(long version, RerankerModel model) {}

    /** The reranked memories and the trace to store as feedback. */
    public record Reranked(List<ScoredMemory> shown, RerankTrace trace) {}

    /** How many candidates retrieval should hand over. */
    public int candidateCount() {
        return properties.candidates();
    }

    /** How many of its order a reply that shows a fixed number takes: RMM's top K ({@code memoir.reranker.top-k}). */
    public int topK() {
        return properties.topK();
    }

    /**
     * Every candidate, ordered by the tenant's reranker (sampled while it learns, Gumbel-perturbed: the first K of the
     * order are a Gumbel top-K sample), the one way a reply's memory is reranked: a reply whose token budget decides
     * how many are shown takes them in this order, one that shows a fixed number takes the first {@link #topK}.
     * Feedback then compares the shown and cited with the shown and not cited.
     */
    @Transactional(readOnly = true)
    public Reranked order(TenantId tenant, float[] query, List<ScoredMemory> candidates) {
        int topK = candidates.size();
        Map<UUID, float[]> embeddings = store.embeddings(
                tenant, candidates.stream().map(ScoredMemory::id).toList());
        List<ScoredMemory> present =
                candidates.stream().filter(c -> embeddings.containsKey(c.id())).toList();
        Loaded loaded = model(tenant, query.length);
        double[] scores = loaded.model()
                .scores(query, present.stream().map(c -> embeddings.get(c.id())).toList());
        int[] chosen = properties.learning()
                ? RerankerModel.gumbelTopK(scores, topK, properties.temperature(), random)
                : Arrays.copyOf(RerankerModel.ranking(scores), Math.min(topK, scores.length));
        List<ScoredMemory> shown = new ArrayList<>();
        for (int index : chosen) {
            shown.add(present.get(index));
        }
        return new Reranked(
                shown,
                new RerankTrace(
                        query,
                        present.stream().map(ScoredMemory::id).toList(),
                        scores,
                        shown.stream().map(ScoredMemory::id).toList(),
                        loaded.version()));
    }

    /**
     * Stores what the reply made of the reranked memories as feedback, in the transaction that stores the reply:
     * the memories shown are those of the trace that the reply was given (the token budget may have left some
     * out), the memories cited those of them it cited.
     *
     * @param givenIds every memory the reply was given, reranked or not
     * @param citedIds every memory the reply cited
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void recordFeedback(
            TenantId tenant,
            String userId,
            UUID turnId,
            RerankTrace trace,
            Collection<UUID> givenIds,
            Collection<UUID> citedIds) {
        List<UUID> shown = trace.shownIds().stream().filter(givenIds::contains).toList();
        List<UUID> cited = trace.shownIds().stream().filter(citedIds::contains).toList();
        feedback.save(new RerankerFeedback(
                tenant.value(),
                userId,
                turnId,
                trace.query(),
                trace.candidateIds(),
                trace.scores(),
                shown,
                cited,
                trace.modelVersion()));
        if (properties.learning()
                && feedback.countByTenantIdAndTrainedAtIsNull(tenant.value()) >= properties.batchSize()) {
            jobs.queue(TRAINING, tenant, tenant.toString());
        }
    }

    /**
     * The user confirmed a reranked reply as correct: every memory it was shown earns a positive reward. Does
     * nothing for replies that did not go through the reranker.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void confirmReply(TenantId tenant, UUID turnId) {
        feedback.findFirstByTenantIdAndTurnIdOrderByCreatedAtAsc(tenant.value(), turnId)
                .ifPresent(reply -> {
                    reply.confirmed();
                    if (properties.learning()
                            && feedback.countByTenantIdAndTrainedAtIsNull(tenant.value()) >= properties.batchSize()) {
                        jobs.queue(TRAINING, tenant, tenant.toString());
                    }
                });
    }

    /**
     * Deletes a user's reranker feedback (it holds their queries' embeddings); part of erasing the user. What the
     * tenant's reranker already learned from it stays in its weights, which belong to no single user.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int deleteFeedbackOfUser(TenantId tenant, String userId) {
        return feedback.deleteAllForUser(tenant.value(), userId);
    }

    /** Forgets what replies among these turns taught; part of deleting their session. */
    public int deleteFeedbackOfTurns(TenantId tenant, Collection<UUID> turnIds) {
        return turnIds.isEmpty() ? 0 : feedback.deleteAllOfTurns(tenant.value(), turnIds);
    }

    private Loaded model(TenantId tenant, int dimensions) {
        long version = weights.version(tenant.value()).orElse(-1L);
        Loaded cached = cache.get(tenant.value());
        if (cached != null && cached.version() == version && cached.model().dimensions() == dimensions) {
            return cached;
        }
        Loaded loaded = weights.findById(tenant.value())
                .filter(w -> w.getDimensions() == dimensions)
                .map(w -> new Loaded(w.getVersion(), w.model()))
                .orElseGet(() -> new Loaded(Math.max(version, 0), RerankerModel.identity(dimensions)));
        cache.put(tenant.value(), loaded);
        return loaded;
    }
}
