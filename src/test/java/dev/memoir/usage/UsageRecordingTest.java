package dev.memoir.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.archive.ChatGptConversation;
import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/**
 * Usage recorded per tenant, user and step is what the model server saw and billed: chats, closes (their memory
 * jobs) and an import, for two tenants, against the scripted model's own log of what it answered.
 */
class UsageRecordingTest extends IntegrationTest {

    @Autowired
    UsageRecorder recorder;

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    /** A tenant of the test, a user of it, and the word only that user's text holds. */
    private record Who(String key, UUID tenant, String user, String marker) {}

    /** Calls, prompt and completion tokens. */
    private record Sums(long calls, long prompt, long completion) {
        Sums plus(long prompt, long completion) {
            return new Sums(calls + 1, this.prompt + prompt, this.completion + completion);
        }
    }

    @Test
    void recordedUsageEqualsWhatTheModelServerAnsweredPerTenantUserAndStep() {
        Api.Response first = api.createTenant("usage-a-" + tag);
        Api.Response second = api.createTenant("usage-b-" + tag);
        List<Who> chatting = List.of(
                who(first, "alice-" + tag, "zephyrwort" + tag),
                who(first, "bob-" + tag, "quillback" + tag),
                who(second, "carol-" + tag, "marrowfin" + tag));
        Who importer = who(second, "dave-" + tag, "lanternmoss" + tag);

        List<String> sessions = new ArrayList<>();
        for (Who w : chatting) {
            // Every memory form for all but the first user: each close job's steps are counted too.
            String session =
                    api.newSession(w.key(), w.user(), w == chatting.getFirst() ? null : "{\"strategy\": \"all\"}");
            sessions.add(w.key() + " " + session);
            for (String message : List.of(
                    "I keep my " + w.marker() + " seeds in a jar on the windowsill.",
                    "What should I plant beside the " + w.marker() + " this spring?")) {
                Api.Response reply = api.chat(w.key(), session, message);
                assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            }
            assertThat(api.close(w.key(), session).status()).isEqualTo(202);
        }
        Instant at = Instant.parse("2025-05-01T09:00:00Z");
        Api.Response imported = api.postBytes(
                "/users/" + importer.user() + "/import/chatgpt?strategy=all",
                importer.key(),
                ChatGptConversation.export(new ChatGptConversation("c-" + tag, "Garden " + tag, at)
                        .text("u1", "user", "My " + importer.marker() + " hedge needs trimming twice a year.", at)
                        .text("a1", "assistant", "Trim it in late spring and early autumn.", at.plusSeconds(5))
                        .text("u2", "user", "The " + importer.marker() + " also hates wet feet.", at.plusSeconds(60))
                        .text("a2", "assistant", "Then plant it where the soil drains well.", at.plusSeconds(65))
                        .json()),
                "application/json");
        assertThat(imported.status()).as(imported.raw()).isEqualTo(200);
        for (JsonNode session : items(api.get(importer.key(), "/sessions?userId=" + importer.user()))) {
            sessions.add(importer.key() + " " + session.path("id").asString());
        }
        sessions.forEach(this::awaitJobsDone);

        recorder.flush();

        List<Who> everyone = new ArrayList<>(chatting);
        everyone.add(importer);
        Map<String, Sums> served = new TreeMap<>();
        for (FakeOpenAiServer.Served call : fake.served()) {
            everyone.stream()
                    .filter(w -> call.call().prompt().contains(w.marker()))
                    .findFirst()
                    .ifPresent(w -> served.merge(
                            w.tenant() + " " + w.user() + " " + call.call().stepTag(),
                            new Sums(1, call.promptTokens(), call.completionTokens()),
                            (a, b) -> a.plus(b.prompt(), b.completion())));
        }
        Map<String, Sums> recorded = new TreeMap<>();
        for (UUID tenant : List.of(chatting.get(0).tenant(), chatting.get(2).tenant())) {
            jdbc.sql("""
                    select user_id, step, sum(calls) as calls, sum(prompt_tokens) as prompt,
                           sum(completion_tokens) as completion
                    from usage_hours where tenant_id = ? and kind = 'chat' group by user_id, step""")
                    .param(tenant)
                    .query((rs, row) -> recorded.put(
                            tenant + " " + rs.getString("user_id") + " " + rs.getString("step"),
                            new Sums(rs.getLong("calls"), rs.getLong("prompt"), rs.getLong("completion"))))
                    .list();
        }

        assertThat(served.keySet().stream().map(k -> k.substring(k.lastIndexOf(' ') + 1)))
                .as("the steps the test drives")
                .contains("reply", "session-summary", "memo-writing", "recursive-summary", "topic-extraction");
        assertThat(recorded).isEqualTo(served);
    }

    private Who who(Api.Response tenant, String user, String marker) {
        return new Who(tenant.text("apiKey"), UUID.fromString(tenant.text("id")), user, marker);
    }

    private void awaitJobsDone(String keyAndSession) {
        String[] parts = keyAndSession.split(" ");
        eventually().atMost(Duration.ofSeconds(60)).until(() -> {
            List<String> states = new ArrayList<>();
            for (JsonNode job :
                    api.get(parts[0], "/sessions/" + parts[1]).body().path("jobs")) {
                states.add(job.path("state").asString());
            }
            return states.stream().allMatch("done"::equals);
        });
    }
}
