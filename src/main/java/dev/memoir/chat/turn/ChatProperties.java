package dev.memoir.chat.turn;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param recentTurns            turns of the current session sent verbatim with each reply, the new message
 *                               included
 * @param recentTurnsTokenBudget tokens those turns may take: older turns are left out (and become searchable
 *                               memory instead) once the newer ones fill it. The new message is always sent
 *                               whole, so a reply prompt is at most the template, the memory budget and the
 *                               larger of this budget and the message.
 * @param streamTimeout          how long a streamed reply (POST /chat with text/event-stream, or stream true on
 *                               /v1/chat/completions) may take from the request to its last event; one that takes
 *                               longer ends with an error event, and its turns are still stored. Replaces
 *                               spring.mvc.async.request-timeout (the servlet container's 30 s when unset) for
 *                               these streams.
 */
@Validated
@ConfigurationProperties("memoir.chat")
record ChatProperties(
        @DefaultValue("12") @Min(1) int recentTurns,
        @DefaultValue("4000") @Min(100) int recentTurnsTokenBudget,

        @DefaultValue("5m") @NotNull @DurationMin(millis = 1)
        Duration streamTimeout) {}
