package dev.memoir.context;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ContextTraceRepository extends JpaRepository<ContextTrace, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by id alone runs on
    // every shard.
    Optional<ContextTrace> findByIdAndTenantId(UUID id, UUID tenantId);
}
