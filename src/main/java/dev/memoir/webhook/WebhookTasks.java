package dev.memoir.webhook;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.Task;

import dev.memoir.jobs.Jobs;

/** The webhook-delivery job type, run by the jobs module with every other. */
@Configuration
class WebhookTasks {

    @Bean
    Task<Void> webhookDelivery(Jobs jobs, Webhooks webhooks) {
        return jobs.task(Webhooks.JOB, webhooks::deliver);
    }
}
