package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import example.springai.AssistantApplication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.context.ConfigurableApplicationContext;

import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

/**
 * The README's "Use from Spring AI" class, exactly as the README shows it, compiled here and run as an application
 * with the README's two properties against the started service: the model is asked with the user's memory.
 */
class ReadmeSpringAiSnippetTest extends IntegrationTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("(?ms)^```java\\n(.*?)^```");
    private static final Pattern PROPERTIES_BLOCK = Pattern.compile("(?ms)^```properties\\n(.*?)^```");

    private static String onlyBlock(Pattern pattern, String readme, String what) {
        Matcher block = pattern.matcher(readme);
        assertThat(block.find()).as("a " + what + " block in README.md").isTrue();
        String text = block.group(1);
        assertThat(block.find()).as("only one " + what + " block in README.md").isFalse();
        return text;
    }

    @Test
    void theReadmesSpringAiApplicationAsksTheModelWithTheUsersMemory(@TempDir Path build) throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        String snippet = onlyBlock(JAVA_BLOCK, readme, "```java");
        String properties = onlyBlock(PROPERTIES_BLOCK, readme, "```properties");
        assertThat(properties.lines().toList())
                .containsExactly("memoir.client.url=http://localhost:8080", "memoir.client.api-key=${MEMOIR_KEY}");

        Class<?> assistant = compile(build, snippet, "example.assistant.Assistant");

        String key = api.newTenant();
        api.addFact(key, "alice", "Alice is vegetarian.", "supersedes", List.of());
        String question = "What should I cook tonight? (the Spring AI snippet)";
        // The README's properties, with this test's service and key in place of localhost and ${MEMOIR_KEY}.
        Map<String, String> memoir = Map.of("url", "http://127.0.0.1:" + api.port(), "api-key", key);
        try (ConfigurableApplicationContext app =
                AssistantApplication.start(assistant, fake.baseUrl(), FakeOpenAiServer.MODEL, TEMPERATURE, memoir)) {
            Object reply = assistant
                    .getMethod("answer", ChatClient.class, String.class, String.class)
                    .invoke(null, app.getBean(ChatClient.class), "alice", question);
            assertThat(reply).isEqualTo("OK.");
        }
        List<FakeOpenAiServer.ChatCall> calls =
                fake.calls(call -> call.is(Step.APPLICATION) && call.mentions(question));
        assertThat(calls).hasSize(1);
        assertThat(calls.get(0).systemPrompt()).contains("<memory>").contains("Alice is vegetarian.");
    }

    private static Class<?> compile(Path build, String source, String className) throws IOException, Exception {
        Path file = build.resolve("src").resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        Path classes = Files.createDirectories(build.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(
                null,
                null,
                null,
                "--release",
                "17",
                "-classpath",
                System.getProperty("java.class.path"),
                "-d",
                classes.toString(),
                file.toString());
        assertThat(status)
                .as("the README's Java snippet compiles with --release 17")
                .isZero();
        URLClassLoader loader = new URLClassLoader(
                new URL[] {classes.toUri().toURL()}, ReadmeSpringAiSnippetTest.class.getClassLoader());
        return Class.forName(className, true, loader);
    }
}
