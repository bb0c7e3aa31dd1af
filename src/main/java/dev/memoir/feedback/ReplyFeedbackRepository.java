package dev.memoir.feedback;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ReplyFeedbackRepository extends JpaRepository<ReplyFeedback, UUID> {

    // By the tenant too: on a database distributed by tenant (Citus, docs/scaling.md) a lookup by id alone runs on
    // every shard.
    Optional<ReplyFeedback> findByIdAndTenantId(UUID id, UUID tenantId);
}
