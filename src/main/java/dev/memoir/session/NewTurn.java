package dev.memoir.session;

import java.time.Instant;

/** A turn to store; {@code occurredAt} is when it was said, null for now (the server's clock). */
public record NewTurn(Role role, String content, Instant occurredAt) {

    public NewTurn(Role role, String content) {
        this(role, content, null);
    }
}
