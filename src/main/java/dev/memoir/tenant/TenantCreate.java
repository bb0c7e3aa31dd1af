package dev.memoir.tenant;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

record TenantCreate(
        @Schema(description = "Display name of the tenant", example = "acme")
        @NotBlank @Size(max = 200) String name) {
}
