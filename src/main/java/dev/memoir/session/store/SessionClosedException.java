package dev.memoir.session.store;

import java.util.UUID;

import dev.memoir.common.web.ConflictException;

class SessionClosedException extends ConflictException {

    SessionClosedException(UUID sessionId) {
        super("session-closed", "Session " + sessionId + " is closed; start a new session to go on");
    }
}
