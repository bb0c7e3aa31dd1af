package dev.memoir.jobs;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Background jobs ({@code memoir.jobs.*}).
 *
 * @param pollingInterval how often due jobs are looked for in the database
 * @param threads         jobs run at once on this instance
 * @param maxRetries      retries of a failing job before it is dropped (and logged as an error)
 * @param firstRetryDelay delay before the first retry; each later retry waits twice as long
 */
@ConfigurationProperties("memoir.jobs")
public record JobProperties(@DefaultValue("5s") Duration pollingInterval, @DefaultValue("2") int threads,
        @DefaultValue("8") int maxRetries, @DefaultValue("10s") Duration firstRetryDelay) {
}
