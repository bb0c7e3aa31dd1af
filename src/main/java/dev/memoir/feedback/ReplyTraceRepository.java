package dev.memoir.feedback;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ReplyTraceRepository extends JpaRepository<ReplyTrace, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by id alone runs on
    // every shard.
    Optional<ReplyTrace> findByTurnIdAndTenantId(UUID turnId, UUID tenantId);
}
