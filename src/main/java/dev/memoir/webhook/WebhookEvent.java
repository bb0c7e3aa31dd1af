package dev.memoir.webhook;

import java.util.Arrays;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.memoir.common.wire.WireNames;

/** The events an endpoint can ask for, by their wire names; {@code webhook.test} is sent on request only. */
enum WebhookEvent {
    MEMORY_CREATED("memory.created"),
    MEMORY_UPDATED("memory.updated"),
    MEMORY_DELETED("memory.deleted"),
    MEMORY_SUPERSEDED("memory.superseded"),
    MEMORY_QUARANTINED("memory.quarantined"),
    MEMORY_RELEASED("memory.released"),
    TURNS_RECORDED("turns.recorded"),
    SESSION_CLOSED("session.closed"),
    SESSION_MEMORIES_WRITTEN("session.memories-written"),
    USER_ERASED("user.erased"),
    IMPORT_FINISHED("import.finished"),
    BUDGET_WARNING("budget.warning"),
    BUDGET_EXHAUSTED("budget.exhausted"),
    WEBHOOK_TEST("webhook.test");

    private final String wireName;

    WebhookEvent(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    String wireName() {
        return wireName;
    }

    @JsonCreator
    static WebhookEvent fromWireName(String value) {
        return WireNames.parse(WebhookEvent.class, value, "event");
    }

    static WebhookEvent ofWireName(String value) {
        return Arrays.stream(values())
                .filter(e -> e.wireName.equals(value))
                .findFirst()
                .orElseThrow();
    }
}
