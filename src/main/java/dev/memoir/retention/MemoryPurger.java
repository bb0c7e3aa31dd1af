package dev.memoir.retention;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryPurge;
import dev.memoir.memory.RetentionRule;
import dev.memoir.memory.api.MemoryKind;

/**
 * Deletes expired memories and those past their retention, completely (revisions, passages and provenance with
 * them), a batch per transaction until none is left. Counted in {@code memoir.retention.purged} by kind and reason.
 */
@Component
class MemoryPurger {

    private static final Logger log = LoggerFactory.getLogger(MemoryPurger.class);

    /** What one run deleted. */
    record Purged(int expired, int pastRetention) {}

    private final RetentionProperties properties;
    private final TenantRetentions tenantRules;
    private final MemoryPurge purge;
    private final MeterRegistry meters;

    MemoryPurger(
            RetentionProperties properties, TenantRetentions tenantRules, MeterRegistry meters, MemoryPurge purge) {
        this.purge = purge;
        this.properties = properties;
        this.tenantRules = tenantRules;
        this.meters = meters;
    }

    Purged purge() {
        int expired = 0;
        Map<MemoryKind, Integer> batch;
        do {
            batch = purge.expired(properties.batch());
            expired += count(batch, "expired");
        } while (total(batch) == properties.batch());
        List<RetentionRule> defaults = properties.byKind().entrySet().stream()
                .map(e -> new RetentionRule(null, e.getKey(), e.getValue()))
                .toList();
        List<RetentionRule> overrides = tenantRules.all();
        int pastRetention = 0;
        do {
            batch = purge.pastRetention(defaults, overrides, properties.batch());
            pastRetention += count(batch, "retention");
        } while (total(batch) == properties.batch());
        if (expired + pastRetention > 0) {
            log.info("Purged {} expired memories and {} past their retention", expired, pastRetention);
        }
        return new Purged(expired, pastRetention);
    }

    private int count(Map<MemoryKind, Integer> purged, String reason) {
        purged.forEach((kind, count) -> Counter.builder("memoir.retention.purged")
                .description("Memories deleted for good because they expired or outlived their retention")
                .tag("kind", kind.wireName())
                .tag("reason", reason)
                .register(meters)
                .increment(count));
        return total(purged);
    }

    private static int total(Map<MemoryKind, Integer> purged) {
        return purged.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> memoryPurgeTask(Jobs jobs, MemoryPurger purger, RetentionProperties properties) {
            return jobs.recurringTask("memory-purge", properties.purgeInterval(), purger::purge);
        }
    }
}
