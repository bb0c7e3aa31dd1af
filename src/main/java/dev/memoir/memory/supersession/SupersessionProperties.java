package dev.memoir.memory.supersession;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Whether and how Memoir judges, when it stores a fact-bearing memory, which of the user's live memories the new
 * one updates, contradicts or repeats ({@code memoir.supersession.*}).
 *
 * @param enabled       off: new memories never supersede others unless a client says so
 * @param candidates    the nearest live fact-bearing memories shown to the model, at most
 * @param minSimilarity the cosine similarity a memory needs to be shown; when none has it, no model call is made
 */
@Validated
@ConfigurationProperties("memoir.supersession")
public record SupersessionProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("3") @Min(1) @Max(10) int candidates,

        @DefaultValue("0.6") @DecimalMin("0") @DecimalMax("1")
        double minSimilarity) {}
