package dev.memoir.writing;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param partTokens the most dialogue (in tokens) one whole-session prompt carries: the session summary, topic
 *                   extraction and the recursive-summary fold. Unset, as much as the model's context leaves beside
 *                   the step's instructions and what it carries over (memoir.model.context-tokens); set, at most
 *                   this much. A longer session is read in consecutive parts, so that it never overflows the
 *                   model's context; one turn longer than a part is shortened in the prompt.
 */
@Validated
@ConfigurationProperties("memoir.writing")
record DialogueProperties(@Min(200) Integer partTokens) {}
