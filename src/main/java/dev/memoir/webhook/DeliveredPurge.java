package dev.memoir.webhook;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import dev.memoir.jobs.Jobs;

/**
 * The {@code webhook-purge} job: deletes the rows of deliveries delivered longer ago than
 * {@code memoir.webhooks.keep-delivered}, payloads and all, every {@code memoir.webhooks.purge-every}. A delivery not
 * yet delivered (waiting, or dead-lettered until an operator runs it again) stays; the text of a memory that is gone
 * has already left it ({@link WebhookOutbox#forgetText}).
 */
@Component
class DeliveredPurge {

    private static final Logger log = LoggerFactory.getLogger(DeliveredPurge.class);

    static final String JOB = "webhook-purge";

    private final JdbcClient jdbc;
    private final Duration keep;

    DeliveredPurge(JdbcClient jdbc, WebhookProperties properties) {
        this.jdbc = jdbc;
        this.keep = properties.keepDelivered();
    }

    int purge() {
        int purged = jdbc.sql("""
                delete from webhook_deliveries
                where delivered_at is not null and delivered_at < now() - make_interval(secs => ?)""").param(keep.toSeconds()).update();
        if (purged > 0) {
            log.info("Purged {} webhook deliveries delivered more than {} ago", purged, keep);
        }
        return purged;
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> webhookPurge(Jobs jobs, DeliveredPurge purge, WebhookProperties properties) {
            return jobs.recurringTask(JOB, properties.purgeEvery(), purge::purge);
        }
    }
}
