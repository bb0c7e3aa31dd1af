package dev.memoir.webhook;

import java.util.Set;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;

@Schema(description = "An endpoint to deliver memory events to")
record WebhookCreate(
        @Schema(
                description = "Where deliveries are POSTed: http or https, not a loopback, private, link-local or "
                        + "metadata address (unless the operator allows its host, memoir.webhooks.allowed-hosts)",
                example = "https://example.com/memoir-events")
        @NotBlank
        @Size(max = FieldConstraints.WEBHOOK_URL)
        String url,

        @Schema(
                description = "The events wanted: memory.created, memory.updated, memory.deleted",
                example = "[\"memory.created\", \"memory.deleted\"]")
        @NotEmpty
        Set<@NotNull WebhookEvent> events,

        @Schema(
                description = "Whether payloads carry the memory's text; without it they carry its kind, id and "
                        + "user only",
                example = "false")
        Boolean includeText) {}
