package dev.memoir.session.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

import dev.memoir.common.web.NotFoundException;
import dev.memoir.tenant.TenantId;

public interface SessionRepository extends JpaRepository<Session, UUID> {

    Optional<Session> findByIdAndTenantId(UUID id, UUID tenantId);

    /** The tenant's session; 404 when it is not the tenant's. */
    default Session require(TenantId tenant, UUID id) {
        return findByIdAndTenantId(id, tenant.value()).orElseThrow(() -> new NotFoundException("Session", id));
    }

    /** Locks the session row so that turns appended concurrently get distinct positions. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select s from Session s where s.id = :id and s.tenantId = :tenantId")
    Optional<Session> lockByIdAndTenantId(UUID id, UUID tenantId);

    /**
     * The user whose session of the tenant it is, read without loading the session into the persistence context: a
     * writer takes the user's lock before it loads and locks the session, and must then see the session as it is
     * once locked.
     */
    @Query("select s.userId from Session s where s.id = :id and s.tenantId = :tenantId")
    Optional<String> userOf(UUID id, UUID tenantId);

    @Modifying
    @Query("delete from Session s where s.id = :id and s.tenantId = :tenantId")
    void deleteByIdAndTenantId(UUID id, UUID tenantId);

    /**
     * Holds the session row (FOR SHARE) so that erasing the user waits for a memory write under way. By its tenant
     * too: Citus locks rows only on one shard (docs/scaling.md).
     */
    @Lock(LockModeType.PESSIMISTIC_READ)
    @Query("select s.id from Session s where s.id = :id and s.tenantId = :tenantId")
    Optional<UUID> holdByIdAndTenantId(UUID id, UUID tenantId);

    /**
     * Open sessions of every tenant without a turn since the cutoff, longest idle first, each with its tenant: the
     * search looks across tenants, the close of each names its tenant.
     */
    @Query("select new dev.memoir.session.store.IdleSession(s.tenantId, s.id) from Session s "
            + "where s.status = dev.memoir.session.store.SessionStatus.OPEN and s.updatedAt < :cutoff "
            + "order by s.updatedAt, s.id")
    List<IdleSession> findIdleOpen(Instant cutoff, Limit limit);

    List<Session> findByTenantIdAndUserIdOrderByCreatedAtDescIdDesc(UUID tenantId, String userId, Limit limit);

    /** The user's sessions after a page's last one, newest first (keyset paging on the index's order). */
    @Query(value = """
            select * from sessions
            where tenant_id = :tenantId and user_id = :userId and (created_at, id) < (:createdAt, :id)
            order by created_at desc, id desc
            limit :limit""", nativeQuery = true)
    List<Session> findPageAfter(UUID tenantId, String userId, Instant createdAt, UUID id, int limit);

    Optional<Session> findFirstByTenantIdAndUserIdAndStatusOrderByCreatedAtDesc(
            UUID tenantId, String userId, SessionStatus status);

    @Modifying
    @Query("delete from Session s where s.tenantId = :tenantId and s.userId = :userId")
    int deleteAllForUser(UUID tenantId, String userId);

    @Query("select s.id from Session s where s.tenantId = :tenantId and s.userId = :userId")
    List<UUID> idsOfUser(UUID tenantId, String userId);

    /** The sessions a client's conversation went on in, oldest first. */
    List<Session> findByTenantIdAndConversationIdOrderByCreatedAtAscIdAsc(UUID tenantId, String conversationId);

    Optional<Session> findFirstByTenantIdAndConversationIdOrderByCreatedAtDescIdDesc(
            UUID tenantId, String conversationId);

    /** The tenant's conversation ids, those with the newest session first. */
    @Query(value = """
            select conversation_id from sessions
            where tenant_id = :tenantId and conversation_id is not null
            group by conversation_id
            order by max(created_at) desc, conversation_id
            limit :limit""", nativeQuery = true)
    List<String> conversationIds(UUID tenantId, int limit);
}
