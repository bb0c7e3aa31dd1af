package dev.memoir.memory.revision;

import java.util.List;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;

interface MemoryRevisionRepository extends JpaRepository<MemoryRevision, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by memory alone runs
    // on every shard.
    List<MemoryRevision> findByTenantIdAndMemoryIdAndVersionLessThanOrderByVersionDesc(
            UUID tenantId, UUID memoryId, int version, Limit limit);

    boolean existsByTenantIdAndMemoryId(UUID tenantId, UUID memoryId);
}
