package dev.memoir.writing;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

interface SummaryFoldRepository extends JpaRepository<SummaryFold, UUID> {

    /** The user's oldest closed session not yet folded. */
    Optional<SummaryFold> findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(UUID tenantId,
            String userId);

    /**
     * Serialises folding per user for the rest of the transaction, across threads and service replicas, so that
     * each fold starts from the version the previous one wrote.
     */
    @Query(nativeQuery = true, value = "select cast(pg_advisory_xact_lock(hashtextextended(:key, 0)) as text)")
    String lockUser(String key);
}
