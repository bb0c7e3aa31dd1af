package dev.memoir.chat;

import org.springframework.http.HttpStatus;

import dev.memoir.web.ApiException;

class EmptyReplyException extends ApiException {

    EmptyReplyException() {
        super(HttpStatus.BAD_GATEWAY, "model-error", "The chat model returned an empty answer");
    }
}
