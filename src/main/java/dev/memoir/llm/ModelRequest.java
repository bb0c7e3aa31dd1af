package dev.memoir.llm;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.ai.chat.messages.Message;

/**
 * One request for the chat model, as {@link ChatModelClient} laid it out: the step, its messages, their size as
 * counted, the step's schema (null for a plain-text step), the values that filled it, and the timeout sized to it.
 */
record ModelRequest(
        ModelStep<?> step,
        List<Message> messages,
        int promptTokens,
        String schema,
        Map<String, String> values,
        Duration timeout) {

    String text() {
        return messages.stream().map(Message::getText).collect(Collectors.joining("\n"));
    }

    /** A failure of this request as the {@link ModelCallException} (504, 503 or 502) callers see. */
    ModelCallException failure(RuntimeException failure) {
        return ModelCallException.from(step, failure, text(), timeout);
    }
}
