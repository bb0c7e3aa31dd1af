package dev.memoir.reranker;

import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import dev.memoir.jobs.Jobs;

@Configuration(proxyBeanMethods = false)
class RerankerTasks {

    @Bean
    OneTimeTask<Void> rerankerTrainingTask(Jobs jobs, RerankerTrainer trainer) {
        return jobs.task(Reranker.TRAINING, id -> trainer.train(UUID.fromString(id)));
    }
}
