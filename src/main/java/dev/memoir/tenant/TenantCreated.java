package dev.memoir.tenant;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A new tenant with its first API key. The key is shown only here, once: store it.")
record TenantCreated(
        @Schema(description = "Tenant id") UUID id,
        @Schema(description = "Tenant name") String name,

        @Schema(description = "API key for `Authorization: Bearer ...`; only its hash is stored")
        String apiKey) {}
