package dev.memoir.memory;

import jakarta.persistence.LockModeType;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;

interface MemoryRecordRepository extends JpaRepository<MemoryRecord, UUID> {

    List<MemoryRecord> findByTenantIdAndUserIdAndKindInOrderByCreatedAtDesc(UUID tenantId, String userId,
            Collection<MemoryKind> kinds, Limit limit);

    Optional<MemoryRecord> findByIdAndTenantId(UUID id, UUID tenantId);

    Optional<MemoryRecord> findByDedupKey(String dedupKey);

    /** The record, locked until the transaction ends: revisions of one memory happen one after another. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select m from MemoryRecord m where m.id = :id")
    Optional<MemoryRecord> lockById(UUID id);

    boolean existsByTenantIdAndUserIdAndKindAndDedupKeyStartingWith(UUID tenantId, String userId, MemoryKind kind,
            String prefix);

    @Modifying
    @Query("delete from MemoryRecord m where m.tenantId = :tenantId and m.userId = :userId")
    int deleteAllForUser(UUID tenantId, String userId);

    @Modifying
    @Query("delete from MemoryRecord m where m.tenantId = :tenantId and m.sessionId = :sessionId and m.kind in :kinds")
    int deleteAllOfSession(UUID tenantId, UUID sessionId, java.util.Collection<MemoryKind> kinds);
}
