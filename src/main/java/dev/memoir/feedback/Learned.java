package dev.memoir.feedback;

import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "What an ended episode taught the assistant's memory")
@JsonInclude(JsonInclude.Include.NON_NULL)
record Learned(
        @Schema(
                description = "edited: the most similar memory was replaced (its old text kept as a revision); "
                        + "added: stored as a new reflected memory; none: nothing to learn",
                example = "edited")
        String action,

        UUID memoryId,
        @Schema(description = "The reflected memory") String text,

        @Schema(description = "The text it replaced, when a memory was edited")
        String replacedText,

        @Schema(
                description = "The memory it corrects, when that memory records what was said (a history memory, "
                        + "never rewritten): the reflected memory rests on the same turns")
        UUID corrects) {

    static Learned nothing() {
        return new Learned("none", null, null, null, null);
    }
}
