package dev.memoir.chat;

import jakarta.validation.constraints.Min;

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
 */
@Validated
@ConfigurationProperties("memoir.chat")
record ChatProperties(@DefaultValue("12") @Min(1) int recentTurns,
        @DefaultValue("4000") @Min(100) int recentTurnsTokenBudget) {
}
