package dev.memoir.springai;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class MemoirAutoConfigurationTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(MemoirAutoConfiguration.class));

    @Test
    void theUrlAndKeyMakeTheClientTheAdvisorAndTheTools() {
        runner.withPropertyValues(
                        "memoir.client.url=http://127.0.0.1:1",
                        "memoir.client.api-key=mk_x",
                        "memoir.client.token-budget=700",
                        "memoir.client.on-failure=continue")
                .run(context -> {
                    assertThat(context).hasSingleBean(MemoirClient.class);
                    assertThat(context).hasSingleBean(MemoirMemoryAdvisor.class);
                    assertThat(context).hasSingleBean(MemoirMemoryTools.class);
                    MemoirClientProperties properties = context.getBean(MemoirClientProperties.class);
                    assertThat(properties.tokenBudget()).isEqualTo(700);
                    assertThat(properties.onFailure()).isEqualTo(MemoirClientProperties.OnFailure.CONTINUE);
                });
    }

    @Test
    void theChatMemoryRepositoryIsMadeOnRequestAndTheAdvisorThenLeavesRecordingToIt() {
        runner.withPropertyValues("memoir.client.url=http://127.0.0.1:1")
                .run(context -> assertThat(context).doesNotHaveBean(MemoirChatMemoryRepository.class));
        runner.withPropertyValues("memoir.client.url=http://127.0.0.1:1", "memoir.client.chat-memory-repository=true")
                .run(context -> {
                    assertThat(context).hasSingleBean(MemoirChatMemoryRepository.class);
                    assertThat(context.getBean(MemoirClientProperties.class).chatMemoryRepository())
                            .isTrue();
                });
    }

    @Test
    void withoutAUrlNothingIsMade() {
        runner.run(context -> assertThat(context).doesNotHaveBean(MemoirClient.class));
    }
}
