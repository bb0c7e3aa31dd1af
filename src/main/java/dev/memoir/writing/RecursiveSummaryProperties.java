package dev.memoir.writing;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param maxSentences the user's recursive summary is kept to at most this many sentences */
@ConfigurationProperties("memoir.recursive-summary")
record RecursiveSummaryProperties(@DefaultValue("20") int maxSentences) {
}
