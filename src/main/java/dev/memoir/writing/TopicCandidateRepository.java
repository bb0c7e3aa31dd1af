package dev.memoir.writing;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

import dev.memoir.memory.api.Speaker;

interface TopicCandidateRepository extends JpaRepository<TopicCandidate, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by session or id
    // alone runs on every shard.
    List<TopicCandidate> findByTenantIdAndSessionIdAndSpeakerAndAppliedAtIsNullOrderByPositionAsc(
            UUID tenantId, UUID sessionId, Speaker speaker);

    Optional<TopicCandidate> findByIdAndTenantId(UUID id, UUID tenantId);
}
