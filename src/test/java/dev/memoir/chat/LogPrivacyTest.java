package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

/** What a user said must not reach the log, whatever the model answers: logs outlive an erasure. */
@ExtendWith(OutputCaptureExtension.class)
class LogPrivacyTest extends IntegrationTest {

    @Test
    void malformedModelAnswersAreLoggedWithoutTheUsersWords(CapturedOutput output) {
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        String secret = "zanzibar" + UUID.randomUUID().toString().replace("-", "");
        String[] bodies = {
            "{\"id\": \"x\", \"object\": \"chat.completion\", \"created\": 1, \"model\": \"m\", \"choices\": []}",
            null,
            null,
            null
        };
        String[] contents = {null, "", "My answer mentions " + secret + " without JSON", "{\"reply\": \"" + secret};
        for (int i = 0; i < bodies.length; i++) {
            String marker = UUID.randomUUID().toString();
            Answer answer = bodies[i] != null ? Answer.raw(bodies[i]) : Answer.content(contents[i]);
            onModelCall(call -> call.is(Step.REPLY) && call.mentions(marker), call -> answer);

            int status = api.chat(key, session, "My password hint is " + secret + " " + marker)
                    .status();

            assertThat(status).as("answer %d", i).isIn(502, 200);
        }
        assertThat(output.getAll()).contains("could not be used").doesNotContain(secret);
    }
}
