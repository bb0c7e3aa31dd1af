package dev.memoir.writing;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface SummaryFoldRepository extends JpaRepository<SummaryFold, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by session alone runs
    // on every shard.
    Optional<SummaryFold> findBySessionIdAndTenantId(UUID sessionId, UUID tenantId);

    /** The user's oldest closed session not yet folded. */
    Optional<SummaryFold> findFirstByTenantIdAndUserIdAndFoldedAtIsNullOrderByClosedAtAsc(UUID tenantId, String userId);
}
