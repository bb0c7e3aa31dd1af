package dev.memoir.session.conversations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;

import tools.jackson.databind.JsonNode;

/**
 * A client's conversation kept whole by its id (issue 42, Spring AI's ChatMemoryRepository): dialogue as turns,
 * tool calls and tool and system messages beside them, read back in order across the sessions it went on in.
 */
class ConversationsTest extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    private Api.Response append(String key, String conversation, String user, Object... messages) {
        return api.send(
                "POST",
                "/conversations/" + conversation + "/messages",
                key,
                Json.write(Map.of("userId", user, "messages", List.of(messages))));
    }

    private static Map<String, Object> message(Object... fields) {
        return Json.fields(fields);
    }

    private static List<String> roles(JsonNode messages) {
        return messages.valueStream().map(m -> m.path("role").asString()).toList();
    }

    @Test
    void toolCallsToolResultsAndSystemMessagesReadBackInPlaceBesideTheDialogue() {
        String key = api.newTenant();
        String conversation = "support-" + tag;
        Api.Response first = append(
                key,
                conversation,
                "ana",
                message("role", "system", "content", "You are a weather assistant."),
                message("role", "user", "content", "What is the weather in Lyon? " + tag),
                message(
                        "role",
                        "assistant",
                        "content",
                        "",
                        "toolCalls",
                        List.of(Map.of(
                                "id",
                                "call_1",
                                "type",
                                "function",
                                "name",
                                "weather",
                                "arguments",
                                "{\"city\":\"Lyon\"}"))),
                message("role", "tool", "toolCallId", "call_1", "name", "weather", "content", "18 °C, sunny"));
        assertThat(first.status()).as(first.raw()).isEqualTo(201);
        assertThat(first.body().path("turns").asInt()).isEqualTo(1);
        assertThat(first.body().path("sideMessages").asInt()).isEqualTo(3);
        Api.Response second = append(
                key,
                conversation,
                "ana",
                message(
                        "role",
                        "assistant",
                        "content",
                        "It is 18 °C and sunny in Lyon. Shall I check tomorrow too?",
                        "toolCalls",
                        List.of(Map.of("id", "call_2", "name", "forecast", "arguments", "{}"))),
                message("role", "tool", "toolCallId", "call_2", "name", "forecast", "content", "rain"),
                message("role", "user", "content", "No thanks."));
        assertThat(second.status()).as(second.raw()).isEqualTo(201);

        Api.Response read = api.get(key, "/conversations/" + conversation + "/messages");

        assertThat(read.status()).as(read.raw()).isEqualTo(200);
        JsonNode messages = read.body().path("messages");
        assertThat(roles(messages)).containsExactly("system", "user", "assistant", "tool", "assistant", "tool", "user");
        assertThat(messages.get(2).path("toolCalls").get(0).path("arguments").asString())
                .isEqualTo("{\"city\":\"Lyon\"}");
        assertThat(messages.get(3).path("toolCallId").asString()).isEqualTo("call_1");
        assertThat(messages.get(3).path("content").asString()).isEqualTo("18 °C, sunny");
        assertThat(messages.get(4).path("content").asString()).startsWith("It is 18 °C");
        assertThat(messages.get(4).path("toolCalls").get(0).path("name").asString())
                .as("an assistant message's text and its tool calls read back as one message")
                .isEqualTo("forecast");
        assertThat(read.body().path("userId").asString()).isEqualTo("ana");
        // The dialogue alone is the session's turns, from which memory is written.
        String session = first.text("sessionId");
        assertThat(api.get(key, "/sessions/" + session)
                        .body()
                        .path("turns")
                        .valueStream()
                        .map(t -> t.path("content").asString())
                        .toList())
                .containsExactly(
                        "What is the weather in Lyon? " + tag,
                        messages.get(4).path("content").asString(),
                        "No thanks.");
        assertThat(api.get(key, "/conversations/" + conversation + "/messages?limit=2")
                        .body()
                        .path("messages")
                        .size())
                .isEqualTo(2);
    }

    @Test
    void aConversationGoesOnInANewSessionAfterItsSessionClosedAndReadsBackWhole() {
        String key = api.newTenant();
        String conversation = "long-" + tag;
        String firstSession = append(
                        key,
                        conversation,
                        "ben",
                        message("role", "user", "content", "Hello " + tag),
                        message("role", "assistant", "content", "Hi Ben."))
                .text("sessionId");
        assertThat(api.close(key, firstSession).status()).isEqualTo(202);

        Api.Response later = append(
                key,
                conversation,
                "ben",
                message("role", "tool", "toolCallId", "c", "content", "x"),
                message("role", "user", "content", "Back again."));

        assertThat(later.status()).as(later.raw()).isEqualTo(201);
        assertThat(later.text("sessionId")).isNotEqualTo(firstSession);
        assertThat(api.get(key, "/conversations/" + conversation + "/messages")
                        .body()
                        .path("messages")
                        .valueStream()
                        .map(m -> m.path("content").asString())
                        .toList())
                .containsExactly("Hello " + tag, "Hi Ben.", "x", "Back again.");
        assertThat(api.get(key, "/conversations")
                        .body()
                        .path("conversationIds")
                        .valueStream()
                        .map(JsonNode::asString)
                        .toList())
                .containsExactly(conversation);
    }

    @Test
    void aConversationIsOneUsersAndOneTenants() {
        String key = api.newTenant();
        String conversation = "mine-" + tag;
        append(key, conversation, "cleo", message("role", "user", "content", "My locker code is 4411."));

        Api.Response intruder = append(key, conversation, "dan", message("role", "user", "content", "Hi"));
        String otherTenant = api.newTenant();
        Api.Response otherRead = api.get(otherTenant, "/conversations/" + conversation + "/messages");

        assertThat(intruder.status()).as(intruder.raw()).isEqualTo(409);
        assertThat(intruder.text("code")).isEqualTo("conversation-of-another-user");
        assertThat(otherRead.status()).isEqualTo(404);
        assertThat(api.get(otherTenant, "/conversations")
                        .body()
                        .path("conversationIds")
                        .size())
                .isZero();
    }

    @Test
    void deletingAConversationDeletesItsSessionsAndSideMessages() {
        String key = api.newTenant();
        String conversation = "gone-" + tag;
        append(
                key,
                conversation,
                "eve",
                message("role", "system", "content", "Be brief."),
                message("role", "user", "content", "I keep bees " + tag + "."));

        Api.Response deleted = api.send("DELETE", "/conversations/" + conversation, key, null);

        assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
        assertThat(deleted.body().path("sessions").get(0).path("turns").asInt()).isEqualTo(1);
        assertThat(api.get(key, "/conversations/" + conversation + "/messages").status())
                .isEqualTo(404);
        assertThat(api.send("DELETE", "/conversations/" + conversation, key, null)
                        .status())
                .isEqualTo(404);
        assertThat(jdbc.sql("select count(*) from side_messages where content = 'Be brief.'")
                        .query(Integer.class)
                        .single())
                .isZero();
    }

    @Test
    void invalidMessagesAreRefusedNamingTheField() {
        String key = api.newTenant();

        Api.Response badRole = append(key, "c-" + tag, "fay", message("role", "developer", "content", "x"));
        Api.Response noMessages = api.send(
                "POST",
                "/conversations/c-" + tag + "/messages",
                key,
                Json.object("userId", "fay", "messages", List.of()));

        assertThat(badRole.status()).isEqualTo(400);
        assertThat(badRole.raw()).contains("messages[0].role");
        assertThat(noMessages.status()).isEqualTo(400);
        assertThat(noMessages.raw()).contains("messages");
    }
}
