package dev.memoir.reranker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.memory.MemoryStore;
import dev.memoir.tenant.TenantId;

/** What the inspector and operators see of a tenant's reranker (its status, its history) and its reset. */
@Service
class RerankerInspector {

    private final RerankerWeightsRepository weights;
    private final RerankerFeedbackRepository feedback;
    private final MemoryStore store;
    private final RerankerProperties properties;

    RerankerInspector(
            RerankerWeightsRepository weights,
            RerankerFeedbackRepository feedback,
            MemoryStore store,
            RerankerProperties properties) {
        this.weights = weights;
        this.feedback = feedback;
        this.store = store;
        this.properties = properties;
    }

    @Transactional(readOnly = true)
    RerankerStatus status(TenantId tenant) {
        RerankerWeights stored = weights.findById(tenant.value()).orElse(null);
        List<RerankerFeedback> recent =
                feedback.findByTenantIdOrderByCreatedAtDesc(tenant.value(), Limit.of(properties.statsWindow()));
        Double averageReward = recent.isEmpty()
                ? null
                : recent.stream()
                        .mapToDouble(RerankerFeedback::meanReward)
                        .average()
                        .orElse(0);
        int citedTotal = 0;
        int citedBefore = 0;
        int citedAfter = 0;
        // Decoded once and fetched in one query: the window holds up to statsWindow replies.
        RerankerModel learned = stored == null ? null : stored.model();
        Map<UUID, float[]> embeddings = store.embeddings(
                tenant,
                recent.stream()
                        .flatMap(reply -> reply.getCandidateIds().stream())
                        .distinct()
                        .toList());
        for (RerankerFeedback reply : recent) {
            List<UUID> present = reply.getCandidateIds().stream()
                    .filter(embeddings::containsKey)
                    .toList();
            List<UUID> cited =
                    reply.getCitedIds().stream().filter(present::contains).toList();
            if (cited.isEmpty()) {
                continue;
            }
            int k = reply.getShownIds().size();
            RerankerModel model = learned != null && learned.dimensions() == reply.getQueryEmbedding().length
                    ? learned
                    : RerankerModel.identity(reply.getQueryEmbedding().length);
            int[] ranking = RerankerModel.ranking(model.scores(
                    reply.getQueryEmbedding(),
                    present.stream().map(embeddings::get).toList()));
            List<UUID> rerankedTop =
                    Arrays.stream(ranking).limit(k).mapToObj(present::get).toList();
            List<UUID> retrievalTop = present.stream().limit(k).toList();
            citedTotal += cited.size();
            citedBefore += (int) cited.stream().filter(retrievalTop::contains).count();
            citedAfter += (int) cited.stream().filter(rerankedTop::contains).count();
        }
        return new RerankerStatus(
                stored == null ? 0 : stored.getVersion(),
                stored == null ? 0 : stored.getUpdates(),
                feedback.countByTenantId(tenant.value()),
                feedback.countByTenantIdAndTrainedAtIsNull(tenant.value()),
                recent.size(),
                averageReward,
                citedTotal == 0 ? null : (double) citedBefore / citedTotal,
                citedTotal == 0 ? null : (double) citedAfter / citedTotal,
                stored == null ? null : stored.getUpdatedAt());
    }

    /**
     * The recent reranked replies grouped by the version that served them. Each reply's scores are the ones that
     * version gave, so its top K can be judged as it stood then, without keeping old weights.
     */
    @Transactional(readOnly = true)
    RerankerHistory history(TenantId tenant, int replies) {
        List<RerankerFeedback> recent = feedback.findByTenantIdOrderByCreatedAtDesc(tenant.value(), Limit.of(replies));
        Map<Long, List<RerankerFeedback>> byVersion = new LinkedHashMap<>();
        for (RerankerFeedback reply : recent.reversed()) {
            byVersion
                    .computeIfAbsent(reply.getModelVersion(), v -> new ArrayList<>())
                    .add(reply);
        }
        List<RerankerHistory.Period> periods = byVersion.entrySet().stream()
                .map(entry -> {
                    List<RerankerFeedback> served = entry.getValue();
                    int citedTotal = 0;
                    int inTopK = 0;
                    int inRetrievalTopK = 0;
                    for (RerankerFeedback reply : served) {
                        List<UUID> candidates = reply.getCandidateIds();
                        List<UUID> cited = reply.getCitedIds().stream()
                                .filter(candidates::contains)
                                .toList();
                        int k = reply.getShownIds().size();
                        List<UUID> top = Arrays.stream(RerankerModel.ranking(reply.getScores()))
                                .limit(k)
                                .filter(i -> i < candidates.size())
                                .mapToObj(candidates::get)
                                .toList();
                        List<UUID> retrievalTop = candidates.stream().limit(k).toList();
                        citedTotal += cited.size();
                        inTopK += (int) cited.stream().filter(top::contains).count();
                        inRetrievalTopK += (int)
                                cited.stream().filter(retrievalTop::contains).count();
                    }
                    return new RerankerHistory.Period(
                            entry.getKey(),
                            served.size(),
                            served.stream()
                                    .mapToDouble(RerankerFeedback::meanReward)
                                    .average()
                                    .orElse(0),
                            citedTotal == 0 ? null : (double) inTopK / citedTotal,
                            citedTotal == 0 ? null : (double) inRetrievalTopK / citedTotal,
                            served.getFirst().getCreatedAt(),
                            served.getLast().getCreatedAt());
                })
                .sorted(Comparator.comparing(RerankerHistory.Period::from))
                .toList();
        return new RerankerHistory(recent.size(), periods);
    }

    /** Back to the identity; feedback gathered so far is kept but not learned from again. */
    @Transactional
    RerankerStatus reset(TenantId tenant, int dimensions) {
        weights.createIfAbsent(tenant.value(), dimensions);
        weights.lock(tenant.value()).orElseThrow().reset();
        feedback.markAllTrained(tenant.value());
        return status(tenant);
    }
}
