package dev.memoir.session;

import java.util.UUID;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

class NotAReplyException extends ApiException {

    NotAReplyException(UUID turnId) {
        super(
                HttpStatus.BAD_REQUEST,
                "invalid-request",
                "Turn " + turnId + " is not an assistant reply to a user message; feedback is given on replies");
    }
}
