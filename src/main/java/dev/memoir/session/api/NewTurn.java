package dev.memoir.session.api;

import java.time.Instant;

/**
 * A turn to store; {@code occurredAt} is when it was said, null for now (the server's clock); {@code speaker} is
 * who said it as the dialogue names them, null where it names only the role.
 */
public record NewTurn(Role role, String content, Instant occurredAt, String speaker) {

    public NewTurn(Role role, String content) {
        this(role, content, null, null);
    }

    /** The utterance as history memory writes it, like {@link TurnView#asLine()}. */
    public String asLine() {
        return line(role, speaker, content);
    }

    /** "Caroline: ..." for a named speaker, else "User: ..." or "Assistant: ...". */
    static String line(Role role, String speaker, String content) {
        return (speaker == null ? role.label() : speaker) + ": " + content;
    }
}
