package dev.memoir.webhook;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "A webhook endpoint; its secret is shown once, when it is created")
@JsonInclude(JsonInclude.Include.NON_NULL)
record WebhookView(
        UUID id,
        String url,
        List<String> events,
        boolean includeText,
        Instant createdAt,

        @Schema(
                description = "The signing secret (Standard Webhooks' whsec_ form), shown only in the answer to "
                        + "its creation")
        String secret) {}
