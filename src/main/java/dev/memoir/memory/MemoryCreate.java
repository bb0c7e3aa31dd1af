package dev.memoir.memory;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import dev.memoir.web.UserIdentifier;
import dev.memoir.web.VisibleText;

@Schema(description = "A memory to add directly, such as a fact the user or the application states")
record MemoryCreate(
        @Schema(description = "The user the memory belongs to", example = "alice") @UserIdentifier String userId,
        @Schema(description = "What to remember", example = "Alice is allergic to peanuts.")
        @NotBlank @VisibleText @Size(max = 20000) String text,
        @Schema(description = "When what it states was said or became true (ISO-8601); now when omitted. Not in "
                + "the future beyond memoir.session.clock-skew.", example = "2024-03-01T09:00:00Z")
        Instant occurredAt,
        @Schema(description = "The memory's kind. Only fact (the default) can be added: the other kinds are "
                + "written by Memoir from dialogue and feedback.", example = "fact") MemoryKind kind) {
}
