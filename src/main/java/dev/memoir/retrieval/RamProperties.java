package dev.memoir.retrieval;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * RAM, the paper that defines both recursive reasoning over memory and learning from the user's feedback
 * ({@code memoir.ram.*}). Bound here, below the feedback feature that learns, which reads it too.
 *
 * @param maxSteps        Thought/Action steps in one trial of reasoning (the paper: 6)
 * @param searchResults   memories one Search[...] returns
 * @param maxTrials       trials of an episode before it ends (the paper: 4)
 * @param acceptThreshold cosine similarity above which an answer given as feedback matches the reply
 * @param repeatThreshold cosine similarity above which a new inference repeats an earlier one (ask for help)
 * @param editThreshold   cosine similarity above which a reflected memory replaces the most similar memory
 *                        instead of being added
 */
@Validated
@ConfigurationProperties("memoir.ram")
public record RamProperties(
        @DefaultValue("6") @Min(1) int maxSteps,
        @DefaultValue("3") @Min(1) int searchResults,
        @DefaultValue("4") @Min(1) int maxTrials,

        @DefaultValue("0.9") @DecimalMin("0.0") @DecimalMax("1.0")
        double acceptThreshold,

        @DefaultValue("0.9") @DecimalMin("0.0") @DecimalMax("1.0")
        double repeatThreshold,

        @DefaultValue("0.7") @DecimalMin("0.0") @DecimalMax("1.0")
        double editThreshold) {}
