package dev.memoir.session.store;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

public interface SideMessageRepository extends JpaRepository<SideMessage, UUID> {

    List<SideMessage> findByTenantIdAndSessionIdInOrderByAfterSeqAscOrdinalAsc(
            UUID tenantId, Collection<UUID> sessionIds);

    @Query("select coalesce(max(m.ordinal), -1) from SideMessage m "
            + "where m.tenantId = :tenantId and m.sessionId = :sessionId and m.afterSeq = :afterSeq")
    int maxOrdinal(UUID tenantId, UUID sessionId, int afterSeq);
}
