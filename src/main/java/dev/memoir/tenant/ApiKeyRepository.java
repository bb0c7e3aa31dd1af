package dev.memoir.tenant;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ApiKeyRepository extends JpaRepository<ApiKey, UUID> {

    Optional<ApiKey> findByIdAndTenantId(UUID id, UUID tenantId);

    List<ApiKey> findByTenantIdOrderByCreatedAtAscIdAsc(UUID tenantId);
}
