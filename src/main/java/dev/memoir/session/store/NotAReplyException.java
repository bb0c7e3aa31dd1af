package dev.memoir.session.store;

import java.util.UUID;

import org.springframework.http.HttpStatus;

import dev.memoir.web.ApiException;

public class NotAReplyException extends ApiException {

    public NotAReplyException(UUID turnId) {
        super(HttpStatus.BAD_REQUEST, "invalid-request",
                "Turn " + turnId + " is not an assistant reply to a user message; feedback is given on replies");
    }
}
