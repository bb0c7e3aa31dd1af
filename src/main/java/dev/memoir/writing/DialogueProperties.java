package dev.memoir.writing;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param partTokens the most dialogue (in tokens) one whole-session prompt carries: the session summary, topic
 *                   extraction and the recursive-summary fold. A longer session is read in consecutive parts of
 *                   at most this size, so that it never overflows the model's context; one turn longer than a
 *                   part is shortened in the prompt.
 */
@Validated
@ConfigurationProperties("memoir.writing")
record DialogueProperties(@DefaultValue("6000") @Min(200) int partTokens) {
}
