package dev.memoir.webhook;

import java.time.Instant;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "One delivery to an endpoint and where it stands")
@JsonInclude(JsonInclude.Include.NON_NULL)
record DeliveryView(
        @Schema(
                description = "The delivery's id, sent as webhook-id: the same on every attempt, so a receiver "
                        + "that sees it twice can ignore the second")
        UUID id,

        @Schema(example = "memory.created") String event,
        String userId,
        Instant createdAt,

        @Schema(
                description = "delivered; pending (waiting for its first attempt, a retry, or an earlier delivery "
                        + "of its user to this endpoint); failed (every attempt failed: it waits in the dead-letter list, "
                        + "where an operator can run it again)",
                example = "delivered")
        State state,

        @Schema(description = "Attempts made so far") int attempts,

        @Schema(description = "The HTTP status the endpoint last answered")
        Integer lastStatus,

        @Schema(description = "Why the last attempt failed") String lastError,

        @Schema(description = "When the endpoint accepted it (2xx); absent while it is pending or failed")
        Instant deliveredAt,

        @Schema(description = "When a pending delivery is next looked at (sent, or still held back)")
        Instant nextAttemptAt) {

    enum State {
        delivered,
        pending,
        failed
    }
}
