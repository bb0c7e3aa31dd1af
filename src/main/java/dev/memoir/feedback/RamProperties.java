package dev.memoir.feedback;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Learning from the user's feedback (RAM; {@code memoir.ram.*}; the reasoning's own settings, max-steps and
 * search-results, are in {@code retrieval.ReasoningProperties}).
 *
 * @param maxTrials       trials of an episode before it ends (the paper: 4)
 * @param acceptThreshold cosine similarity above which an answer given as feedback matches the reply
 * @param repeatThreshold cosine similarity above which a new inference repeats an earlier one (ask for help)
 * @param editThreshold   cosine similarity above which a reflected memory replaces the most similar memory
 *                        instead of being added
 */
@Validated
@ConfigurationProperties("memoir.ram")
record RamProperties(@DefaultValue("4") @Min(1) int maxTrials,
        @DefaultValue("0.9") @DecimalMin("0.0") @DecimalMax("1.0") double acceptThreshold,
        @DefaultValue("0.9") @DecimalMin("0.0") @DecimalMax("1.0") double repeatThreshold,
        @DefaultValue("0.7") @DecimalMin("0.0") @DecimalMax("1.0") double editThreshold) {
}
