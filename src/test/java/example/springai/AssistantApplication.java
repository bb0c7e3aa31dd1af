package example.springai;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.retry.autoconfigure.SpringAiRetryAutoConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.memoir.springai.MemoirAutoConfiguration;
import dev.memoir.springai.MemoirMemoryAdvisor;

/**
 * An application of a Memoir user, outside Memoir's packages: Spring AI's OpenAI chat model (the test suite's
 * scripted model server), a {@code ChatClient}, and Memoir's memory advisor made from {@code memoir.client.*}. The
 * auto-configurations are named, since the test classpath also holds Memoir's own (a database, a web server).
 */
@SpringBootConfiguration
@ImportAutoConfiguration({
    SpringAiRetryAutoConfiguration.class,
    ToolCallingAutoConfiguration.class,
    OpenAiChatAutoConfiguration.class,
    ChatClientAutoConfiguration.class,
    ChatMemoryAutoConfiguration.class,
    MemoirAutoConfiguration.class
})
public class AssistantApplication {

    /** The same auto-configuration without this application's own beans, for another configuration's. */
    @SpringBootConfiguration
    @ImportAutoConfiguration({
        SpringAiRetryAutoConfiguration.class,
        ToolCallingAutoConfiguration.class,
        OpenAiChatAutoConfiguration.class,
        ChatClientAutoConfiguration.class,
        ChatMemoryAutoConfiguration.class,
        MemoirAutoConfiguration.class
    })
    static class AutoConfigured {}

    @Bean
    ChatClient chatClient(ChatClient.Builder builder, MemoirMemoryAdvisor memoir) {
        return builder.defaultSystem("You are a helpful cook.")
                .defaultAdvisors(memoir)
                .build();
    }

    /**
     * Starts the application against a model server and a Memoir.
     *
     * @param model the OpenAI-compatible model server's base URL and model
     * @param memoir {@code memoir.client.*} settings (url, api-key, on-failure, ...)
     */
    public static ConfigurableApplicationContext start(
            String modelUrl, String model, double temperature, Map<String, String> memoir) {
        return start(AssistantApplication.class, modelUrl, model, temperature, memoir);
    }

    /**
     * Starts an application made of the given configuration (which makes its own {@code ChatClient}) on the same
     * auto-configuration, as the README's snippet is started.
     */
    public static ConfigurableApplicationContext start(
            Class<?> configuration, String modelUrl, String model, double temperature, Map<String, String> memoir) {
        Map<String, String> properties = new LinkedHashMap<>();
        // Memoir's own application.yml is on the test classpath: this application reads a configuration of its own.
        properties.put("spring.config.name", "assistant");
        properties.put("spring.ai.openai.base-url", modelUrl);
        properties.put("spring.ai.openai.api-key", "application-key");
        properties.put("spring.ai.openai.chat.model", model);
        properties.put("spring.ai.openai.chat.temperature", Double.toString(temperature));
        properties.put("spring.ai.openai.chat.max-tokens", "256");
        properties.put("spring.ai.openai.chat.max-retries", "0");
        // The scripted model server tells an application's calls from Memoir's own by this header.
        properties.put("spring.ai.openai.chat.custom-headers.X-Memoir-Step", "application");
        memoir.forEach((name, value) -> properties.put("memoir.client." + name, value));
        Class<?>[] sources = configuration == AssistantApplication.class
                ? new Class<?>[] {AssistantApplication.class}
                : new Class<?>[] {AutoConfigured.class, configuration};
        // Spring Boot would set up the JVM's one logging system again for this application, and the Memoir the
        // test started in the same JVM would lose its log levels (those that keep users' words out of the log).
        String logging = System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
        try {
            return new SpringApplicationBuilder(sources)
                    .web(WebApplicationType.NONE)
                    .run(properties.entrySet().stream()
                            .map(p -> "--" + p.getKey() + "=" + p.getValue())
                            .toArray(String[]::new));
        } finally {
            if (logging == null) {
                System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
            } else {
                System.setProperty(LoggingSystem.SYSTEM_PROPERTY, logging);
            }
        }
    }
}
