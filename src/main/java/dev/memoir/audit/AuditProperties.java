package dev.memoir.audit;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The audit trail's settings ({@code memoir.audit.*}).
 *
 * @param sealEvery how often the {@code audit-seal} job chains the entries written since its last run (reads seal
 *                  first, so this bounds only how long an unread entry stays unchained)
 * @param keepFor how long an entry is kept, whatever happens to the memory it names (its own retention, apart from
 *                the memory's)
 * @param purgeEvery how often the {@code audit-purge} job deletes the entries older than {@code keepFor}
 */
@Validated
@ConfigurationProperties("memoir.audit")
record AuditProperties(
        @NotNull @DefaultValue("5s") Duration sealEvery,
        @NotNull @DefaultValue("730d") Duration keepFor,
        @NotNull @DefaultValue("1h") Duration purgeEvery) {}
