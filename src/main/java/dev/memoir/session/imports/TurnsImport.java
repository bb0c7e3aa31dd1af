package dev.memoir.session.imports;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.VisibleText;
import dev.memoir.common.wire.WireNames;
import dev.memoir.session.api.Role;

@Schema(
        description = "Existing dialogue to add to a session without calling the chat model: a chat log as an "
                + "assistant's export holds it")
public record TurnsImport(
        @NotEmpty @Size(max = FieldConstraints.IMPORTED_TURNS)
        List<@Valid @NotNull TurnCreate> turns) {

    /**
     * Who spoke, as chat exports name it. User and assistant messages are the dialogue; the others (a system
     * prompt, a tool's output) are not turns of it and are skipped.
     */
    enum MessageRole {
        USER,
        ASSISTANT,
        SYSTEM,
        DEVELOPER,
        TOOL,
        FUNCTION;

        @JsonValue
        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        static MessageRole fromWireName(String value) {
            return WireNames.parse(MessageRole.class, value, "role");
        }

        /** The dialogue role, for a user or assistant message. */
        Optional<Role> dialogue() {
            return Role.ofMessageRole(wireName());
        }
    }

    record TurnCreate(
            @Schema(
                    description = "Who spoke: user or assistant; system, developer, tool and function messages are "
                            + "accepted and skipped, as they are not turns of the dialogue",
                    example = "user")
            @NotNull
            MessageRole role,

            @Schema(
                    description = "What was said. A message without visible text (empty, or only spaces and "
                            + "invisible characters) is skipped, not refused",
                    example = "I moved to Porto last year.")
            @Size(max = FieldConstraints.CHAT_MESSAGE)
            String content,

            @Schema(
                    description = "Who said it, as the dialogue names them (a chat between two people, or an "
                            + "export that names the user): the turn's history memory then reads \"Caroline: ...\" instead "
                            + "of \"User: ...\", so that a question naming the person finds what they said. One line, up to "
                            + "100 characters, without control or format characters; only spaces is the same as absent",
                    example = "Caroline")
            @VisibleText
            @Size(max = FieldConstraints.SPEAKER)
            @Pattern(
                    regexp = "[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]*",
                    message = "must be one line without control, format or line-separator characters")
            String speaker,

            @Schema(
                    description = "When it was said (ISO-8601); turns must be in order and not in the future. "
                            + "Omitted, the turn is dated when Memoir stores it. Give it to every turn of an import or to "
                            + "none.",
                    example = "2023-05-08T13:56:00Z")
            Instant occurredAt) {

        /** The speaker's name as stored: trimmed, or null when none was given. */
        String speakerName() {
            return speaker == null || speaker.isBlank() ? null : speaker.strip();
        }
    }
}
