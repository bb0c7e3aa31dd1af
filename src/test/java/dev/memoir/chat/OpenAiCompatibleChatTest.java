package dev.memoir.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.errors.BadRequestException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import dev.memoir.support.Api;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

/** The OpenAI-compatible endpoint, driven by the official OpenAI Java SDK as any client would. */
class OpenAiCompatibleChatTest extends IntegrationTest {

    private final String tag = UUID.randomUUID().toString();

    private OpenAIClient client(String key) {
        return api.openAi(key);
    }

    private static String content(ChatCompletion completion) {
        return completion.choices().getFirst().message().content().orElseThrow();
    }

    private List<JsonNode> turnsOf(String key, String user) {
        JsonNode sessions = api.get(key, "/sessions?userId=" + user).body().path("items");
        assertThat(sessions).hasSize(1);
        List<JsonNode> turns = new ArrayList<>();
        api.get(key, "/sessions/" + sessions.get(0).path("id").asString())
                .body()
                .path("turns")
                .forEach(turns::add);
        return turns;
    }

    @Test
    void aClientThatResendsTheConversationHasEachTurnStoredOnceAndIsAnsweredWithMemory() {
        String key = api.newTenant();
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions("Where do I live? " + tag),
                call -> Answer.json("{\"reply\": \"In Porto.\", \"remember\": false, \"citations\": []}"));
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions("Thanks " + tag),
                call -> Answer.json("{\"reply\": \"You are welcome.\", \"remember\": false, \"citations\": []}"));
        OpenAIClient openai = client(key);

        ChatCompletion first = openai.chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("alice")
                        .addSystemMessage("You are a helpful assistant.")
                        .addUserMessage("I moved to Porto last year " + tag)
                        .addAssistantMessage("How exciting!")
                        .addUserMessage("Where do I live? " + tag)
                        .build());

        assertThat(content(first)).isEqualTo("In Porto.");
        assertThat(first.model()).isNotBlank();
        assertThat(turnsOf(key, "alice"))
                .extracting(t ->
                        t.path("role").asString() + ": " + t.path("content").asString())
                .containsExactly(
                        "user: I moved to Porto last year " + tag,
                        "assistant: How exciting!",
                        "user: Where do I live? " + tag,
                        "assistant: In Porto.");
        // The reply was asked with the stored dialogue, the client's system message left to the client.
        assertThat(fake.calls(c -> c.is(Step.REPLY) && c.mentions("Where do I live? " + tag))
                        .getFirst()
                        .messages())
                .extracting(m -> m.role() + ": " + m.content())
                .contains("user: I moved to Porto last year " + tag, "assistant: How exciting!")
                .doesNotContain("system: You are a helpful assistant.");

        ChatCompletion second = openai.chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("alice")
                        .addSystemMessage("You are a helpful assistant.")
                        .addUserMessage("I moved to Porto last year " + tag)
                        .addAssistantMessage("How exciting!")
                        .addUserMessage("Where do I live? " + tag)
                        .addAssistantMessage("In Porto.")
                        .addUserMessage("Thanks " + tag)
                        .build());

        assertThat(content(second)).isEqualTo("You are welcome.");
        assertThat(turnsOf(key, "alice")).hasSize(6);
    }

    @Test
    void anOpenAiClientsReplyReadsMemoryAsAChatDoesGroupedBySessionAndFilledToTheBudget() {
        String key = api.newTenant();
        api.sessionAfterClosedOne(
                key,
                "bea",
                null,
                "My sister lives in Oslo " + tag,
                "Lovely city.",
                "I am learning the cello " + tag,
                "How fun!");

        client(key)
                .chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("bea")
                        .addUserMessage("Where does my sister live? " + tag)
                        .build());

        String system = fake.calls(c -> c.is(Step.REPLY) && c.mentions("Where does my sister live? " + tag))
                .getFirst()
                .systemPrompt();
        assertThat(system)
                .contains("[Memory]:\nSession of " + LocalDate.now(ZoneOffset.UTC) + ":\n")
                .contains("User: My sister lives in Oslo " + tag)
                .contains("Assistant: Lovely city.")
                .contains("User: I am learning the cello " + tag)
                .contains("Assistant: How fun!");
    }

    @Test
    void theModelsListNamesTheConfiguredModel() {
        assertThat(client(api.newTenant()).models().list().data())
                .extracting(m -> m.id())
                .isNotEmpty();
    }

    @Test
    void errorsUseOpenAisErrorBodyWithMemoirsCodes() {
        String key = api.newTenant();
        OpenAIClient openai = client(key);

        assertThatThrownBy(() -> openai.chat()
                        .completions()
                        .create(ChatCompletionCreateParams.builder()
                                .model("any")
                                .addUserMessage("Who am I?")
                                .build()))
                .isInstanceOf(BadRequestException.class);
        Api.Response noUser = api.send(
                "POST",
                "/v1/chat/completions",
                key,
                "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}");
        assertThat(noUser.status()).isEqualTo(400);
        assertThat(noUser.body().path("error").path("code").asString()).isEqualTo("invalid-request");
        assertThat(noUser.body().path("error").path("type").asString()).isEqualTo("invalid_request_error");
        assertThat(noUser.body().path("error").path("param").asString()).isEqualTo("user");

        Api.Response lastIsAssistant = api.send(
                "POST",
                "/v1/chat/completions",
                key,
                "{\"user\": \"bo\", \"messages\": [{\"role\": \"assistant\", \"content\": \"Hi\"}]}");
        assertThat(lastIsAssistant.status()).isEqualTo(400);
        assertThat(lastIsAssistant.body().path("error").path("param").asString())
                .isEqualTo("messages[0]");

        Api.Response notText = api.send(
                "POST",
                "/v1/chat/completions",
                key,
                "{\"user\": \"bo\", \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", "
                        + "\"text\": \"a\\u0000b\"}]}]}");
        assertThat(notText.status()).isEqualTo(400);
        assertThat(notText.body().path("error").path("param").asString()).isEqualTo("messages[0].content");

        // Refused before the stream begins: the usual status and error body, not an event stream.
        Api.Response streamed = api.send(
                "POST",
                "/v1/chat/completions",
                key,
                "{\"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}");
        assertThat(streamed.status()).isEqualTo(400);
        assertThat(streamed.body().path("error").path("param").asString()).isEqualTo("user");
    }

    @Test
    void errorsRaisedBeforeTheControllerAlsoUseOpenAisErrorBody() {
        assertThatThrownBy(() -> client("not-a-key").models().list())
                .isInstanceOf(UnauthorizedException.class)
                .hasMessageContaining("Unknown or revoked API key");

        Api.Response noKey = api.send(
                "POST",
                "/v1/chat/completions",
                null,
                "{\"user\": \"bo\", \"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}");
        assertThat(noKey.status()).isEqualTo(401);
        assertThat(noKey.body().path("error").path("type").asString()).isEqualTo("authentication_error");
        assertThat(noKey.body().path("error").path("code").asString()).isEqualTo("unauthorized");

        // Outside /v1 the same refusal stays a problem detail.
        assertThat(api.get(null, "/memory?userId=bo").body().path("code").asString())
                .isEqualTo("unauthorized");
    }

    @Test
    void aTenantKeyNeverReachesAnotherTenantsSessionThroughTheEndpoint() {
        String owner = api.newTenant();
        String intruder = api.newTenant();
        String session = api.newSession(owner, "alice", null);
        api.importTurns(owner, session, "My secret is 4242 " + tag, "Noted.");

        Api.Response stolen = api.sendWithHeadersAsResponse(
                "POST",
                "/v1/chat/completions",
                intruder,
                "{\"user\": \"alice\", \"messages\": [{\"role\": \"user\", \"content\": \"What is my secret?\"}]}",
                "X-Memoir-Session",
                session);

        assertThat(stolen.status()).isEqualTo(404);
        assertThat(stolen.body().path("error").path("code").asString()).isEqualTo("not-found");
        // Without the header, the intruder's "alice" is its own user, with no memory of the owner's.
        onModelCall(
                call -> call.is(Step.REPLY) && call.mentions("What is my secret? " + tag),
                call -> Answer.json("{\"reply\": \"I do not know.\", \"remember\": false}"));
        ChatCompletion own = client(intruder)
                .chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("alice")
                        .addUserMessage("What is my secret? " + tag)
                        .build());
        assertThat(content(own)).isEqualTo("I do not know.");
        assertThat(fake.calls(c -> c.is(Step.REPLY) && c.mentions("What is my secret? " + tag))
                        .getFirst()
                        .systemPrompt())
                .doesNotContain("4242");
    }

    @Test
    void anAnswerNamesTheModelTheServerSaysAnsweredIt() {
        String key = api.newTenant();
        onModelCall(call -> call.is(Step.REPLY) && call.mentions("Which model? " + tag), call -> Answer.raw("""
                {"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000,
                 "model": "memoir-test-model-2026-11-26",
                 "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                   "content": "{\\"reply\\": \\"This one.\\", \\"remember\\": false, \\"citations\\": []}"}}],
                 "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}"""));

        ChatCompletion answer = client(key)
                .chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model("any")
                        .user("mo")
                        .addUserMessage("Which model? " + tag)
                        .build());

        assertThat(answer.model()).isEqualTo("memoir-test-model-2026-11-26");
    }
}
