package dev.memoir.webhook;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.memory.api.MemoryKind;

/**
 * The {@code data} of a delivery, one record per event, in the order docs/api.md's "Webhooks" lists its fields; a
 * field that does not apply (null) is left out. Only a memory's event carries its text, and only to an endpoint that
 * asked for it.
 */
sealed interface WebhookData {

    /** The data as sent to an endpoint that asked for memories' texts: with {@code text} where the event has one. */
    default WebhookData withText(String text) {
        return this;
    }

    /** {@code memory.*}: a memory created, updated, deleted, superseded, quarantined or released. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MemoryChanged(String userId, UUID memoryId, MemoryKind kind, String reason, UUID supersededBy, String text)
            implements WebhookData {

        @Override
        public WebhookData withText(String text) {
            return new MemoryChanged(userId, memoryId, kind, reason, supersededBy, text);
        }
    }

    /** {@code turns.recorded}. */
    record TurnsRecorded(String userId, UUID sessionId, List<UUID> turnIds) implements WebhookData {}

    /** {@code session.closed}. */
    record SessionClosed(String userId, UUID sessionId) implements WebhookData {}

    /** {@code session.memories-written}: the memory jobs the close queued, by type. */
    record MemoriesWritten(String userId, UUID sessionId, List<String> jobs) implements WebhookData {}

    /** {@code user.erased}. */
    record UserErased(String userId) implements WebhookData {}

    /** {@code import.finished}. */
    record ImportFinished(String userId, String what, long sessions) implements WebhookData {}

    /** {@code budget.warning} and {@code budget.exhausted}; {@code userId} only for a user's own budget. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record BudgetReached(
            String userId,
            String period,
            String policy,
            String renewsAt,
            long usedTokens,
            Long maxTokens,
            BigDecimal usedCost,
            BigDecimal maxCost)
            implements WebhookData {}

    /** {@code webhook.test}. */
    record Test(String message) implements WebhookData {}
}
