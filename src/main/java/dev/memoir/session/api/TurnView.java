package dev.memoir.session.api;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.api.TurnOrigin;

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
        UUID replyTo,

        @Schema(
                description = "How the turn reached Memoir: live (said in a conversation: chat, /v1, a conversation "
                        + "log, or recorded by its client through the session's turns), chatgpt or claude (an "
                        + "export), archive (restored); it sets the trust of what is remembered from it "
                        + "(docs/trust.md)",
                example = "live")
        TurnOrigin origin) {

    /** How far its words are trusted (docs/trust.md). */
    @JsonIgnore
    public Trust trust() {
        return MemoryOrigin.ofTurn(role == Role.USER, origin == null ? TurnOrigin.LIVE : origin)
                .trust();
    }

    /** The utterance as history memory writes it: "Caroline: ..." for a named speaker, else "User: ...". */
    public String asLine() {
        return NewTurn.line(role, speaker, content);
    }
}
