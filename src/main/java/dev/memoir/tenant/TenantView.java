package dev.memoir.tenant;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A tenant")
record TenantView(
        UUID id,
        String name,
        Instant createdAt,
        @Schema(description = "API keys not revoked") int activeKeys) {}
