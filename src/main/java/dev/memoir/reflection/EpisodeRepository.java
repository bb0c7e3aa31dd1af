package dev.memoir.reflection;

import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;

interface EpisodeRepository extends JpaRepository<Episode, UUID> {

    Optional<Episode> findByIdAndTenantId(UUID id, UUID tenantId);

    /** Locks the reply's episode, so that feedback given twice at once is applied one after the other. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select e from Episode e where e.replyTurnId = :replyTurnId")
    Optional<Episode> lockByReplyTurnId(UUID replyTurnId);
}
