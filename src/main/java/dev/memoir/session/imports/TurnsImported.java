package dev.memoir.session.imports;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.session.api.TurnView;

@Schema(
        description = "What an import stored, and which of its messages it skipped and why: together they account "
                + "for every message sent, by its position")
public record TurnsImported(
        @Schema(description = "The stored turns, in order") List<TurnView> turns,

        @Schema(description = "The messages that are not turns of the dialogue, by their position in the request")
        List<Skipped> skipped) {

    record Skipped(
            @Schema(description = "The message's position in the request's turns, from 0", example = "0")
            int index,

            @Schema(example = "system") String role,

            @Schema(description = "Why it was not stored", example = "a system message is not a turn of the dialogue")
            String reason) {}
}
