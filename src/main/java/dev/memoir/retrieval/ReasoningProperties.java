package dev.memoir.retrieval;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Recursive reasoning over memory, R^3 ({@code memoir.ram.*}, beside the feedback-learning settings of the same
 * prefix in {@code feedback.RamProperties}: RAM, the paper, defines both).
 *
 * @param maxSteps      Thought/Action steps in one trial (the paper: 6)
 * @param searchResults memories one Search[...] returns
 */
@Validated
@ConfigurationProperties("memoir.ram")
record ReasoningProperties(@DefaultValue("6") @Min(1) int maxSteps, @DefaultValue("3") @Min(1) int searchResults) {
}
