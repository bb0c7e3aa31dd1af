package dev.memoir.session;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import dev.memoir.memory.MemorySettingsOverride;

record SessionCreate(
        @Schema(description = "The client's id for the user; scoped to the calling tenant", example = "alice")
        @NotBlank @Size(max = 200) String userId,
        @Schema(description = "Optional overrides of the default memory strategy") @Valid
        MemorySettingsOverride memory) {
}
