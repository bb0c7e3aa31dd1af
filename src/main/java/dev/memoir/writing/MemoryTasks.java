package dev.memoir.writing;

import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import dev.memoir.jobs.Jobs;

/** The memory-writing job types and the writer each runs. */
@Configuration(proxyBeanMethods = false)
class MemoryTasks {

    @Bean
    OneTimeTask<Void> conditionalMemoryTask(Jobs jobs, ConditionalMemoryWriter writer) {
        return jobs.tenantTask(MemoryJobs.CONDITIONAL_MEMORY,
                (tenant, id) -> writer.write(tenant, UUID.fromString(id)));
    }

    @Bean
    OneTimeTask<Void> sessionSummaryTask(Jobs jobs, SessionSummaryWriter writer) {
        return jobs.tenantTask(MemoryJobs.SESSION_SUMMARY, (tenant, id) -> writer.write(tenant, UUID.fromString(id)));
    }

    @Bean
    OneTimeTask<Void> memoWritingTask(Jobs jobs, MemoWriter writer) {
        return jobs.tenantTask(MemoryJobs.MEMO_WRITING, (tenant, id) -> writer.write(tenant, MemoSpan.parse(id)));
    }

    @Bean
    OneTimeTask<Void> recursiveSummaryTask(Jobs jobs, RecursiveSummaryWriter writer) {
        return jobs.tenantTask(MemoryJobs.RECURSIVE_SUMMARY,
                (tenant, id) -> writer.foldPending(tenant, UUID.fromString(id)));
    }

    @Bean
    OneTimeTask<Void> topicMemoryTask(Jobs jobs, TopicMemoryWriter writer) {
        return jobs.tenantTask(MemoryJobs.TOPIC_MEMORY, (tenant, id) -> writer.write(tenant, UUID.fromString(id)));
    }
}
