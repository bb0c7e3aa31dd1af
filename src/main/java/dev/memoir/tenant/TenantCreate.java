package dev.memoir.tenant;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.VisibleText;

record TenantCreate(
        @Schema(description = "Display name of the tenant", example = "acme")
        @NotBlank
        @VisibleText
        @Size(max = FieldConstraints.TENANT_NAME)
        String name) {}
