package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

/**
 * The README's JavaScript client, exactly as the README shows it, run by {@code node} with OpenAI's own npm package
 * against the started service: the reply comes back through the SDK, and the model was asked with the user's memory.
 * {@code scripts/test.sh} installs the package once into {@code ~/.cache/memoir/openai-node} and names that folder
 * as {@code MEMOIR_TEST_OPENAI_NODE}; the snippet is written into it, so that Node resolves {@code openai} there.
 */
class ReadmeClientSnippetTest extends IntegrationTest {

    private static final Pattern JS_BLOCK = Pattern.compile("(?ms)^```js\\n(.*?)^```");

    private static String readmeSnippet() throws IOException {
        Matcher block = JS_BLOCK.matcher(Files.readString(Path.of("README.md")));
        assertThat(block.find()).as("a ```js block in README.md").isTrue();
        String snippet = block.group(1);
        assertThat(block.find()).as("only one ```js block in README.md").isFalse();
        return snippet;
    }

    private static Path openAiNode() {
        String configured = System.getenv("MEMOIR_TEST_OPENAI_NODE");
        Path home = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "memoir", "openai-node");
        assertThat(home.resolve("node_modules/openai/package.json"))
                .as("OpenAI's npm package, which scripts/test.sh installs (npm install --prefix " + home
                        + " openai); MEMOIR_TEST_OPENAI_NODE names another folder holding it")
                .exists();
        return home;
    }

    @Test
    void theReadmesJavaScriptClientGetsAReplyGivenTheUsersMemory() throws Exception {
        Path home = openAiNode();
        String snippet = readmeSnippet();
        String question = "What should I cook tonight?";
        assertThat(snippet).as("the README's snippet").contains(question).contains("user: \"alice\"");
        String key = api.newTenant();
        api.addFact(key, "alice", "Alice is vegetarian.", "supersedes", List.of());
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(question),
                call -> Answer.json(
                        "{\"reply\": \"A lentil curry, without meat.\", \"remember\": false, " + "\"citations\": []}"));

        Path script = Files.createTempFile(home, "readme-snippet-", ".mjs");
        try {
            Files.writeString(script, snippet);
            ProcessBuilder node = new ProcessBuilder(
                            "node", script.getFileName().toString())
                    .directory(home.toFile())
                    .redirectErrorStream(true);
            node.environment().put("MEMOIR_URL", "http://127.0.0.1:" + api.port());
            node.environment().put("MEMOIR_KEY", key);
            Process process = node.start();
            process.getOutputStream().close();
            boolean ended = process.waitFor(90, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ended).as("node ended within 90 s: " + output).isTrue();
            assertThat(process.exitValue()).as(output).isZero();
            assertThat(output.strip()).isEqualTo("A lentil curry, without meat.");
        } finally {
            Files.deleteIfExists(script);
        }
        // The fake model is shared by the suite, and another test may ask the same question: this test's call is
        // the latest one.
        assertThat(fake.calls(call -> call.is(Step.REPLY) && call.mentions(question))
                        .getLast()
                        .systemPrompt())
                .as("the reply prompt holds alice's memory")
                .contains("Alice is vegetarian.");
    }
}
