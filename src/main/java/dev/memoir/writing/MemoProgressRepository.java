package dev.memoir.writing;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface MemoProgressRepository extends JpaRepository<MemoProgress, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by session alone runs
    // on every shard.
    Optional<MemoProgress> findBySessionIdAndTenantId(UUID sessionId, UUID tenantId);
}
