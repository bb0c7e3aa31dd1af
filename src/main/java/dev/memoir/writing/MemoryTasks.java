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
        return jobs.task(MemoryJobs.CONDITIONAL_MEMORY, id -> writer.write(UUID.fromString(id)));
    }

    @Bean
    OneTimeTask<Void> sessionSummaryTask(Jobs jobs, SessionSummaryWriter writer) {
        return jobs.task(MemoryJobs.SESSION_SUMMARY, id -> writer.write(UUID.fromString(id)));
    }

    @Bean
    OneTimeTask<Void> memoWritingTask(Jobs jobs, MemoWriter writer) {
        return jobs.task(MemoryJobs.MEMO_WRITING, id -> writer.write(MemoSpan.parse(id)));
    }

    @Bean
    OneTimeTask<Void> recursiveSummaryTask(Jobs jobs, RecursiveSummaryWriter writer) {
        return jobs.task(MemoryJobs.RECURSIVE_SUMMARY, id -> writer.foldPending(UUID.fromString(id)));
    }

    @Bean
    OneTimeTask<Void> topicMemoryTask(Jobs jobs, TopicMemoryWriter writer) {
        return jobs.task(MemoryJobs.TOPIC_MEMORY, id -> writer.write(UUID.fromString(id)));
    }
}
