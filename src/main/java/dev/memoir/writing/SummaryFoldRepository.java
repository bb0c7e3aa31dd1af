package dev.memoir.writing;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

interface SummaryFoldRepository extends JpaRepository<SummaryFold, UUID> {

    /** The user's oldest closed session not yet folded. */
    Optional<SummaryFold> findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(UUID tenantId,
            String userId);
}
