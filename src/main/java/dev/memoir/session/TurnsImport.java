package dev.memoir.session;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

@Schema(description = "Existing dialogue to add to a session without calling the chat model")
record TurnsImport(@NotEmpty @Size(max = 1000) List<@Valid @NotNull TurnCreate> turns) {

    record TurnCreate(
            @Schema(description = "Who spoke", example = "user") @NotNull Role role,
            @Schema(description = "What was said") @NotBlank @Size(max = 32000) String content) {
    }
}
