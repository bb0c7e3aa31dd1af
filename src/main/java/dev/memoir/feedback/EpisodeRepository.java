package dev.memoir.feedback;

import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;

interface EpisodeRepository extends JpaRepository<Episode, UUID> {

    Optional<Episode> findByIdAndTenantId(UUID id, UUID tenantId);

    Optional<Episode> findByReplyTurnIdAndTenantId(UUID replyTurnId, UUID tenantId);

    /** Locks the reply's episode while feedback is recorded on it or its outcome stored. */
    /** By its tenant too: Citus locks rows only on one shard (docs/scaling.md). */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select e from Episode e where e.replyTurnId = :replyTurnId and e.tenantId = :tenantId")
    Optional<Episode> lockByReplyTurnIdAndTenantId(UUID replyTurnId, UUID tenantId);
}
