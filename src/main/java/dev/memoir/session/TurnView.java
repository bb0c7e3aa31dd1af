package dev.memoir.session;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "One utterance of a session")
public record TurnView(
        UUID id,
        UUID sessionId,
        @Schema(description = "Position in the session, from 0") int seq,
        @Schema(example = "user") Role role,
        String content,
        Instant createdAt,
        @Schema(description = "When the turn was said: given at import, else when Memoir stored it")
        Instant occurredAt,
        @Schema(description = "For a reply: the user turn it answers (for a reply Memoir made, the message it "
                + "answered; for an imported reply, the user turn right before it); null otherwise") UUID replyTo) {

    /** The utterance as history memory and prompts write it: "User: ..." or "Assistant: ...". */
    public String asLine() {
        return new NewTurn(role, content).asLine();
    }
}
