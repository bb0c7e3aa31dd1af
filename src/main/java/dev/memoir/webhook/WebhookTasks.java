package dev.memoir.webhook;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.Task;

import dev.memoir.jobs.Jobs;

/**
 * The webhook job types, run by the jobs module with every other. Both may put themselves off without it counting
 * as a failure: a delivery behind an earlier one of its user, a wait for a session's memory jobs.
 */
@Configuration
class WebhookTasks {

    @Bean
    Task<Void> webhookDelivery(Jobs jobs, WebhookDeliveryJob delivery) {
        return jobs.deferrableTask(WebhookDeliveryJob.JOB, delivery::deliver);
    }

    @Bean
    Task<Void> webhookMemoriesWritten(Jobs jobs, MemoriesWrittenWait wait) {
        return jobs.deferrableTask(MemoriesWrittenWait.JOB, wait::run);
    }
}
