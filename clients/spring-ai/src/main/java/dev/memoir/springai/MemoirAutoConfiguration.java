package dev.memoir.springai;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

/**
 * Memoir's client, memory advisor and memory tools, made when {@code memoir.client.url} is set (with
 * {@code memoir.client.api-key}, a tenant's key).
 */
// Before Spring AI's chat memory auto-configuration, which makes an in-memory repository when none is defined.
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass(ChatClient.class)
@ConditionalOnProperty(prefix = "memoir.client", name = "url")
@EnableConfigurationProperties(MemoirClientProperties.class)
public class MemoirAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MemoirClient memoirClient(
            MemoirClientProperties properties,
            ObjectProvider<RestClient.Builder> restClients,
            ObjectProvider<ObservationRegistry> observations) {
        return new MemoirClient(
                restClients.getIfAvailable(RestClient::builder),
                properties,
                observations.getIfAvailable(() -> ObservationRegistry.NOOP));
    }

    @Bean
    @ConditionalOnMissingBean
    MemoirMemoryAdvisor memoirMemoryAdvisor(MemoirClient client, MemoirClientProperties properties) {
        return MemoirMemoryAdvisor.builder(client)
                .tokenBudget(properties.tokenBudget())
                .onFailure(properties.onFailure())
                .recordExchanges(!properties.chatMemoryRepository())
                .build();
    }

    @Bean
    @ConditionalOnMissingBean(ChatMemoryRepository.class)
    @ConditionalOnProperty(prefix = "memoir.client", name = "chat-memory-repository", havingValue = "true")
    MemoirChatMemoryRepository memoirChatMemoryRepository(MemoirClient client) {
        return new MemoirChatMemoryRepository(client);
    }

    @Bean
    @ConditionalOnMissingBean
    MemoirMemoryTools memoirMemoryTools(MemoirClient client) {
        return new MemoirMemoryTools(client);
    }
}
