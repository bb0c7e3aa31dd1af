package dev.memoir.reranker;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface RerankerFeedbackRepository extends JpaRepository<RerankerFeedback, UUID> {

    List<RerankerFeedback> findByTenantIdAndTrainedAtIsNullOrderByCreatedAtAsc(UUID tenantId, Limit limit);

    long countByTenantIdAndTrainedAtIsNull(UUID tenantId);

    Optional<RerankerFeedback> findFirstByTenantIdAndTurnIdOrderByCreatedAtAsc(UUID tenantId, UUID turnId);

    long countByTenantId(UUID tenantId);

    List<RerankerFeedback> findByTenantIdOrderByCreatedAtDesc(UUID tenantId, Limit limit);

    @Modifying
    @Query("delete from RerankerFeedback f where f.tenantId = :tenantId and f.userId = :userId")
    int deleteAllForUser(UUID tenantId, String userId);

    @Modifying
    @Query("delete from RerankerFeedback f where f.tenantId = :tenantId and f.turnId in :turnIds")
    int deleteAllOfTurns(UUID tenantId, Collection<UUID> turnIds);

    @Modifying
    @Query("update RerankerFeedback f set f.trainedAt = current_timestamp where f.tenantId = :tenantId "
            + "and f.trainedAt is null")
    int markAllTrained(UUID tenantId);
}
