package dev.memoir.session.web;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.memory.MemorySettingsOverride;

record SessionCreate(
        @Schema(description = "The client's id for the user; scoped to the calling tenant", example = "alice")
        @UserIdentifier
        String userId,

        @Schema(
                description = "Optional overrides of the default memory strategy; omit it for the default",
                example = "{\"strategy\": \"multi-view\"}")
        @Valid
        MemorySettingsOverride memory) {}
