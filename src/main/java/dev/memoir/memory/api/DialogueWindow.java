package dev.memoir.memory.api;

import java.time.Instant;

import dev.memoir.common.web.InvalidRequestException;

/**
 * A window of dialogue time that a memory's span must overlap to be read: {@code from} inclusive, {@code to}
 * exclusive, either end open when null. A window that ends before it starts is refused, 400 naming to, wherever a
 * client gives one (REST or MCP).
 */
public record DialogueWindow(Instant from, Instant to) {

    public DialogueWindow {
        if (from != null && to != null && !from.isBefore(to)) {
            throw new InvalidRequestException("to", "must be after from");
        }
    }
}
