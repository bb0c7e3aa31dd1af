package dev.memoir.tenant;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "An API key as it is listed: never the key itself, which only its creator saw")
@JsonInclude(JsonInclude.Include.NON_NULL)
record ApiKeyView(
        UUID id,

        @Schema(description = "The key's first characters, to tell keys apart", example = "mk_3f9a1")
        String prefix,

        Instant createdAt,

        @Schema(description = "Set once the key is revoked; a revoked key is refused at once")
        Instant revokedAt) {}
