package dev.memoir.chat.turn;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

/** A message longer than the chat model can read beside the reply's instructions and some memory. */
class MessageTooLongException extends ApiException {

    MessageTooLongException(int tokens, int limit, int contextTokens) {
        super(
                HttpStatus.BAD_REQUEST,
                "message-too-long",
                "The message is about " + tokens + " tokens; the chat "
                        + "model's context (memoir.model.context-tokens " + contextTokens
                        + ") has room for messages of at "
                        + "most " + limit
                        + " tokens beside the reply's instructions. Send a shorter message, or run the "
                        + "model with a larger context");
    }
}
