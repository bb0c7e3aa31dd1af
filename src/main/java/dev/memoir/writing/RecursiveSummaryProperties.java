package dev.memoir.writing;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** @param maxSentences the user's recursive summary is kept to at most this many sentences */
@Validated
@ConfigurationProperties("memoir.recursive-summary")
record RecursiveSummaryProperties(
        @DefaultValue("20") @Min(1) int maxSentences) {}
