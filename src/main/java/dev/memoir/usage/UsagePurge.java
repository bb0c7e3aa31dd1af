package dev.memoir.usage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import dev.memoir.jobs.Jobs;

/**
 * The {@code usage-purge} job: deletes the request rows older than {@code memoir.usage.keep-calls}, every
 * {@code memoir.usage.purge-every}. The hourly sums stay.
 */
@Component
class UsagePurge {

    private static final Logger log = LoggerFactory.getLogger(UsagePurge.class);

    static final String JOB = "usage-purge";

    private final JdbcClient jdbc;
    private final UsageProperties properties;

    UsagePurge(JdbcClient jdbc, UsageProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    int purge() {
        int purged = jdbc.sql("delete from usage_calls where called_at < now() - make_interval(secs => ?)")
                .param(properties.keepCalls().toSeconds())
                .update();
        if (purged > 0) {
            log.info("Purged {} usage rows of requests older than {}", purged, properties.keepCalls());
        }
        return purged;
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> usagePurgeJob(Jobs jobs, UsagePurge purge, UsageProperties properties) {
            return jobs.recurringTask(JOB, properties.purgeEvery(), purge::purge);
        }
    }
}
