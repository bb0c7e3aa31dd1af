package dev.memoir.memory.store;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

import dev.memoir.memory.api.MemoryKind;

public interface MemoryRecordRepository extends JpaRepository<MemoryRecord, UUID> {

    Optional<MemoryRecord> findByIdAndTenantId(UUID id, UUID tenantId);

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by ids alone runs on
    // every shard.
    List<MemoryRecord> findByTenantIdAndIdIn(UUID tenantId, Collection<UUID> ids);

    /** A dedup key is unique per user only (V27), and naming the user reads one partition. */
    Optional<MemoryRecord> findByTenantIdAndUserIdAndDedupKey(UUID tenantId, String userId, String dedupKey);

    /**
     * The tenant's record, locked until the transaction ends: revisions of one memory happen one after another, and
     * another tenant's memory is neither found nor locked. The tenant also keeps the lock on one shard on Citus.
     */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select m from MemoryRecord m where m.id = :id and m.tenantId = :tenantId")
    Optional<MemoryRecord> lockByIdAndTenantId(UUID id, UUID tenantId);

    boolean existsByTenantIdAndUserIdAndKindAndDedupKeyStartingWith(
            UUID tenantId, String userId, MemoryKind kind, String prefix);

    @Modifying
    @Query("delete from MemoryRecord m where m.tenantId = :tenantId and m.userId = :userId")
    int deleteAllForUser(UUID tenantId, String userId);
}
