package dev.memoir.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

class JobRestartTest extends IntegrationTest {

    @Autowired
    JobRunner runner;

    @Autowired
    JdbcClient jdbc;

    @Test
    void aQueuedJobIsKeptInTheDatabaseWhileNoRunnerIsUpAndRunsWhenOneStarts() {
        String tag = UUID.randomUUID().toString();
        String key = api.newTenant();
        String session = api.newSession(key, "u", null);
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions(tag),
                call -> Answer.json("{\"reply\": \"ok\", \"remember\": true}"));

        runner.stop();
        Api.Response reply;
        try {
            reply = api.chat(key, session, "I work night shifts " + tag);
            String userTurnId = reply.text("userTurnId");
            assertThat(jdbc.sql("select count(*) from scheduled_tasks where task_name = 'conditional-memory' "
                                    + "and task_instance = ?")
                            .param(userTurnId)
                            .query(Integer.class)
                            .single())
                    .isEqualTo(1);
            eventually()
                    .during(Duration.ofSeconds(1))
                    .until(() -> fake.calls(c -> c.is(Step.CONDITIONAL_MEMORY) && c.mentions(tag))
                            .isEmpty());
        } finally {
            runner.start();
        }

        eventually()
                .until(() ->
                        ofKind(api.get(key, "/memory?userId=u"), "conditional").size() == 1);
        assertThat(ofKind(api.get(key, "/memory?userId=u"), "conditional")
                        .getFirst()
                        .path("provenance")
                        .path("turnIds")
                        .get(0)
                        .asString())
                .isEqualTo(reply.text("userTurnId"));
    }
}
