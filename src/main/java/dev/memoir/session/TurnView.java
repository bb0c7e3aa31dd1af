package dev.memoir.session;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One utterance of a session")
public record TurnView(
        UUID id,
        UUID sessionId,

        @Schema(description = "Position in the session, from 0")
        int seq,

        @Schema(example = "user") Role role,

        @Schema(
                description = "Who said it, as an imported dialogue names them; null where only the role is known",
                example = "Caroline")
        String speaker,

        String content,
        Instant createdAt,

        @Schema(description = "When the turn was said: given at import, else when Memoir stored it")
        Instant occurredAt,

        @Schema(
                description = "For a reply: the user turn it answers (for a reply Memoir made, the message it "
                        + "answered; for an imported reply, the user turn right before it); null otherwise")
        UUID replyTo) {

    /** The utterance as history memory writes it: "Caroline: ..." for a named speaker, else "User: ...". */
    public String asLine() {
        return NewTurn.line(role, speaker, content);
    }
}
