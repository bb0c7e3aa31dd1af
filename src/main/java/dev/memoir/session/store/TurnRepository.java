package dev.memoir.session.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface TurnRepository extends JpaRepository<Turn, UUID> {

    // Every lookup names the tenant beside the turn or session: on a database distributed by tenant (Citus,
    // docs/scaling.md) a lookup by id alone runs on every shard.

    Optional<Turn> findByIdAndTenantId(UUID id, UUID tenantId);

    List<Turn> findByTenantIdAndIdIn(UUID tenantId, Collection<UUID> ids);

    List<Turn> findByTenantIdAndSessionIdOrderBySeqAsc(UUID tenantId, UUID sessionId);

    List<Turn> findByTenantIdAndSessionIdAndSeqLessThanEqualOrderBySeqDesc(
            UUID tenantId, UUID sessionId, int seq, Limit limit);

    List<Turn> findByTenantIdAndSessionIdAndSeqBetweenOrderBySeqAsc(
            UUID tenantId, UUID sessionId, int fromSeq, int toSeq);

    /**
     * The turns within {@code radius} positions of each (session, position) pair, the pairs given as two PostgreSQL
     * array literals of the same length; a turn near two pairs comes twice.
     */
    @Query(value = """
            select t.* from turns t
            join unnest(cast(:sessionIds as uuid[]), cast(:seqs as int[])) as around(session_id, seq)
              on t.session_id = around.session_id and t.seq between around.seq - :radius and around.seq + :radius
            where t.tenant_id = :tenantId""", nativeQuery = true)
    List<Turn> findAround(UUID tenantId, String sessionIds, String seqs, int radius);

    @Query("select coalesce(max(t.seq), -1) from Turn t where t.tenantId = :tenantId and t.sessionId = :sessionId")
    int maxSeq(UUID tenantId, UUID sessionId);

    @Query("select max(t.occurredAt) from Turn t where t.tenantId = :tenantId and t.sessionId = :sessionId")
    Optional<Instant> lastOccurredAt(UUID tenantId, UUID sessionId);

    @Modifying
    @Query("""
            delete from Turn t where t.tenantId = :tenantId and t.sessionId in
              (select s.id from Session s where s.tenantId = :tenantId and s.userId = :userId)""")
    int deleteAllForUser(UUID tenantId, String userId);

    @Query("select t.id from Turn t where t.tenantId = :tenantId and t.sessionId = :sessionId")
    List<UUID> idsOfSession(UUID tenantId, UUID sessionId);

    @Modifying
    @Query("delete from Turn t where t.tenantId = :tenantId and t.sessionId = :sessionId")
    int deleteAllOfSession(UUID tenantId, UUID sessionId);
}
