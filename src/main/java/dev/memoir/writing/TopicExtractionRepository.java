package dev.memoir.writing;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

import dev.memoir.memory.api.Speaker;

interface TopicExtractionRepository extends JpaRepository<TopicExtraction, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by session alone runs
    // on every shard.
    boolean existsByTenantIdAndSessionIdAndSpeaker(UUID tenantId, UUID sessionId, Speaker speaker);
}
