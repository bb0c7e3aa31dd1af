package dev.memoir.session;

import java.util.UUID;

import dev.memoir.web.ConflictException;

class SessionClosedException extends ConflictException {

    SessionClosedException(UUID sessionId) {
        super("session-closed", "Session " + sessionId + " is closed; start a new session to go on");
    }
}
