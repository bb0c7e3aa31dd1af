package dev.memoir.session;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import dev.memoir.web.VisibleText;

@Schema(description = "Existing dialogue to add to a session without calling the chat model")
record TurnsImport(@NotEmpty @Size(max = 1000) List<@Valid @NotNull TurnCreate> turns) {

    record TurnCreate(
            @Schema(description = "Who spoke", example = "user") @NotNull Role role,
            @Schema(description = "What was said") @NotBlank @VisibleText @Size(max = 32000) String content,
            @Schema(description = "When it was said (ISO-8601); turns must be in order and not in the future. "
                    + "Omitted, the turn is dated when Memoir stores it. Give it to every turn of an import or to "
                    + "none.", example = "2023-05-08T13:56:00Z") Instant occurredAt) {
    }
}
