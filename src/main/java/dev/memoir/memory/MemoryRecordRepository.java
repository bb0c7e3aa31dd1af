package dev.memoir.memory;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface MemoryRecordRepository extends JpaRepository<MemoryRecord, UUID> {

    /**
     * The user's records nearest to a query vector by cosine distance. Ranking happens in PostgreSQL on the HNSW
     * index; the user filter is part of the same query, so no other user's rows ever reach the service.
     */
    @Query(nativeQuery = true, value = """
            select * from memory_records m
            where m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
              and not (m.turn_ids && cast(:excludedTurnIds as uuid[]))
            order by m.embedding <=> cast(:query as vector)
            limit :limit""")
    List<MemoryRecord> findNearest(UUID tenantId, String userId, Collection<String> kinds, String query,
            String excludedTurnIds, int limit);

    @Query(nativeQuery = true, value = """
            select * from memory_records m
            where m.tenant_id = :tenantId and m.user_id = :userId and m.kind = :kind and m.speaker = :speaker
            order by m.embedding <=> cast(:query as vector)
            limit :limit""")
    List<MemoryRecord> findNearestOfSpeaker(UUID tenantId, String userId, String kind, String speaker, String query,
            int limit);

    List<MemoryRecord> findByTenantIdAndUserIdAndKindInOrderByCreatedAtDesc(UUID tenantId, String userId,
            Collection<MemoryKind> kinds, Limit limit);

    Optional<MemoryRecord> findByIdAndTenantId(UUID id, UUID tenantId);

    Optional<MemoryRecord> findByDedupKey(String dedupKey);

    boolean existsByDedupKeyStartingWith(String prefix);

    @Modifying
    @Query("delete from MemoryRecord m where m.tenantId = :tenantId and m.userId = :userId")
    int deleteAllForUser(UUID tenantId, String userId);
}
