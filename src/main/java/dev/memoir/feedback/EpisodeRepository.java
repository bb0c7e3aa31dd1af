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

    /**
     * Serialises everything done about one reply's episode until the transaction ends, also before the episode
     * exists: two first feedbacks on a reply would otherwise both create it.
     */
    @Query(value = "select count(*) from (select pg_advisory_xact_lock(hashtextextended(cast(:replyTurnId as text), 17)))"
            + " as locked", nativeQuery = true)
    long serialiseOnReply(UUID replyTurnId);

    /** Locks the reply's episode while feedback is recorded on it or its outcome stored. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select e from Episode e where e.replyTurnId = :replyTurnId")
    Optional<Episode> lockByReplyTurnId(UUID replyTurnId);
}
