package dev.memoir.retrieval;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How a reply's memory context is gathered when a session fills it to its token budget ({@code memoir.context.*};
 * sessions with the per-kind selection use their top K instead).
 *
 * @param candidates       memories one search over every kind the session reads hands to the reply, best first: the
 *                         budget then decides how many are shown (the search ranks at least
 *                         {@code memoir.search.candidates} per ranking whatever this is, so more costs little)
 * @param reflectionShown  the best of them that self-reflection is shown to judge and order
 * @param neighbours       turns before and after a retrieved utterance, in its session, shown with it where they fit
 */
@Validated
@ConfigurationProperties("memoir.context")
record ContextProperties(
        @DefaultValue("80") @Min(1) @Max(500) int candidates,
        @DefaultValue("10") @Min(1) @Max(50) int reflectionShown,
        @DefaultValue("1") @Min(0) @Max(5) int neighbours) {}
