package dev.memoir.retrieval;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Recursive reasoning over memory, R^3 ({@code memoir.ram.*}, beside the feedback-learning settings of the same
 * prefix in {@code feedback.RamProperties}: RAM, the paper, defines both).
 *
 * @param maxSteps      Thought/Action steps in one trial (the paper: 6)
 * @param searchResults memories one Search[...] returns
 */
@ConfigurationProperties("memoir.ram")
record ReasoningProperties(@DefaultValue("6") int maxSteps, @DefaultValue("3") int searchResults) {
}
