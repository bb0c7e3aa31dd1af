package dev.memoir.tenant;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A new API key. The key is shown only here, once: store it.")
record ApiKeyCreated(
        UUID id,
        String prefix,
        Instant createdAt,

        @Schema(description = "API key for `Authorization: Bearer ...`; only its hash is stored")
        String apiKey) {}
