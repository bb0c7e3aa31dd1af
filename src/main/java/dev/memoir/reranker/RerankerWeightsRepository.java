package dev.memoir.reranker;

import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface RerankerWeightsRepository extends JpaRepository<RerankerWeights, UUID> {

    /** Serialises updates of one tenant's reranker across threads and replicas. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select w from RerankerWeights w where w.tenantId = :tenantId")
    Optional<RerankerWeights> lock(UUID tenantId);

    @Query("select w.version from RerankerWeights w where w.tenantId = :tenantId")
    Optional<Long> version(UUID tenantId);

    @Modifying
    @Query(nativeQuery = true, value = """
            insert into reranker_models (tenant_id, version, updates, dimensions, baseline, updated_at)
            values (:tenantId, 0, 0, :dimensions, 0, now())
            on conflict (tenant_id) do nothing""")
    void createIfAbsent(UUID tenantId, int dimensions);
}
