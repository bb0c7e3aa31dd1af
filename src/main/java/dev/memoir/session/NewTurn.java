package dev.memoir.session;

import java.time.Instant;

/** A turn to store; {@code occurredAt} is when it was said, null for now (the server's clock). */
public record NewTurn(Role role, String content, Instant occurredAt) {

    public NewTurn(Role role, String content) {
        this(role, content, null);
    }

    /** The utterance as history memory writes it, like {@link TurnView#asLine()}. */
    public String asLine() {
        return role.label() + ": " + content;
    }
}
