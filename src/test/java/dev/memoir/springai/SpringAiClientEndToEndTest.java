package dev.memoir.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import example.springai.AssistantApplication;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.context.ConfigurableApplicationContext;

import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.Step;
import dev.memoir.support.IntegrationTest;

/**
 * The Spring AI client in an application of its own ({@link AssistantApplication}: {@code ChatClient} with Memoir's
 * memory advisor, Spring AI's OpenAI model on the suite's scripted model server) against the started Memoir.
 */
class SpringAiClientEndToEndTest extends IntegrationTest {

    private ConfigurableApplicationContext application(String key, String... more) {
        Map<String, String> memoir = new java.util.LinkedHashMap<>();
        memoir.put("url", "http://127.0.0.1:" + api.port());
        memoir.put("api-key", key);
        for (int i = 0; i < more.length; i += 2) {
            memoir.put(more[i], more[i + 1]);
        }
        return AssistantApplication.start(fake.baseUrl(), FakeOpenAiServer.MODEL, TEMPERATURE, memoir);
    }

    private static String ask(ConfigurableApplicationContext app, String user, String conversation, String message) {
        return app.getBean(ChatClient.class)
                .prompt()
                .user(message)
                .advisors(
                        a -> a.param(MemoirMemoryAdvisor.USER_ID, user).param(ChatMemory.CONVERSATION_ID, conversation))
                .call()
                .content();
    }

    private static String systemOfTheApplicationsCall(String message) {
        List<FakeOpenAiServer.ChatCall> calls = fake.calls(call -> call.is(Step.APPLICATION) && call.mentions(message));
        assertThat(calls).as("the application's model call for " + message).isNotEmpty();
        return calls.get(calls.size() - 1).systemPrompt();
    }

    @Test
    void aFactToldInOneConversationReachesTheModelInALaterOneAndNeverAnotherUsersOrTenants() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String fact = "I am allergic to peanuts, tag " + tag + ".";
        String question = "Which nuts am I allergic to, tag " + tag + "?";
        String key = api.newTenant();
        String otherKey = api.newTenant();
        try (ConfigurableApplicationContext app = application(key);
                ConfigurableApplicationContext otherTenant = application(otherKey)) {
            assertThat(ask(app, "alice", "first", fact)).isEqualTo("OK.");
            assertThat(systemOfTheApplicationsCall(fact)).startsWith("You are a helpful cook.");

            ask(app, "alice", "second", question);
            assertThat(systemOfTheApplicationsCall(question))
                    .startsWith("You are a helpful cook.")
                    .contains("<memory>")
                    .contains("allergic to peanuts, tag " + tag);

            String bobs = question.replace("Which", "Bob asks: which");
            ask(app, "bob", "second", bobs);
            assertThat(systemOfTheApplicationsCall(bobs)).doesNotContain(tag);

            String otherTenants = question.replace("Which", "Elsewhere: which");
            ask(otherTenant, "alice", "second", otherTenants);
            assertThat(systemOfTheApplicationsCall(otherTenants)).doesNotContain(tag);
        }
    }

    @Test
    void aStreamedCallRecordsItsWholeReplyInTheUsersSession() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String message = "Plan my week of dinners, tag " + tag + ".";
        onModelCall(
                call -> call.is(Step.APPLICATION) && call.mentions(message),
                call -> Answer.content("Monday: dal. Tuesday: pasta. Wednesday: soup " + tag + "."));
        String key = api.newTenant();
        try (ConfigurableApplicationContext app = application(key)) {
            String streamed = String.join(
                    "",
                    app
                            .getBean(ChatClient.class)
                            .prompt()
                            .user(message)
                            .advisors(a -> a.param(MemoirMemoryAdvisor.USER_ID, "carol"))
                            .stream()
                            .content()
                            .collectList()
                            .block());
            assertThat(streamed).isEqualTo("Monday: dal. Tuesday: pasta. Wednesday: soup " + tag + ".");
        }
        assertThat(fake.calls(call -> call.is(Step.APPLICATION) && call.mentions(message)))
                .singleElement()
                .matches(FakeOpenAiServer.ChatCall::streamed, "streamed");
        var sessions = api.get(key, "/sessions?userId=carol");
        assertThat(sessions.status()).isEqualTo(200);
        String session = sessions.body().path("items").get(0).path("id").asString();
        var turns = api.get(key, "/sessions/" + session).body().path("turns");
        assertThat(turns.size()).isEqualTo(2);
        assertThat(turns.get(0).path("content").asString()).isEqualTo(message);
        assertThat(turns.get(1).path("role").asString()).isEqualTo("assistant");
        assertThat(turns.get(1).path("content").asString())
                .isEqualTo("Monday: dal. Tuesday: pasta. Wednesday: soup " + tag + ".");
    }

    @Test
    void aRefusedKeyOrAMemoirThatIsDownIsAClearExceptionAndTheCallGoesOnWithoutMemoryWhereConfigured()
            throws Exception {
        String message = "What is for lunch, " + UUID.randomUUID() + "?";
        try (ConfigurableApplicationContext app = application("mk_not-a-key")) {
            assertThatThrownBy(() -> ask(app, "alice", "c", message))
                    .isInstanceOfSatisfying(MemoirException.class, e -> {
                        assertThat(e.status()).isEqualTo(401);
                        assertThat(e.code()).isEqualTo("unauthorized");
                    });
        }
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, String> down = Map.of("url", "http://127.0.0.1:" + closedPort, "api-key", "mk_x");
        try (ConfigurableApplicationContext app =
                AssistantApplication.start(fake.baseUrl(), FakeOpenAiServer.MODEL, TEMPERATURE, down)) {
            assertThatThrownBy(() -> ask(app, "alice", "c", message))
                    .isInstanceOfSatisfying(
                            MemoirException.class, e -> assertThat(e.code()).isEqualTo(MemoirException.UNREACHABLE));
        }
        assertThat(fake.calls(call -> call.is(Step.APPLICATION) && call.mentions(message)))
                .as("the model is not asked without the memory the application asked for")
                .isEmpty();

        try (ConfigurableApplicationContext app = application("mk_not-a-key", "on-failure", "continue")) {
            assertThat(ask(app, "alice", "c", message)).isEqualTo("OK.");
        }
        assertThat(systemOfTheApplicationsCall(message)).isEqualTo("You are a helpful cook.");
    }

    @Test
    void theChatMemoryRepositoryKeepsToolCallsAndOrderInMemoirAndAppendsOnlyWhatIsNew() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String conversation = "dora:trip-" + tag;
        String key = api.newTenant();
        try (ConfigurableApplicationContext app = application(key, "chat-memory-repository", "true")) {
            ChatMemoryRepository repository = app.getBean(ChatMemoryRepository.class);
            assertThat(repository).isInstanceOf(MemoirChatMemoryRepository.class);
            ChatMemory memory = app.getBean(ChatMemory.class);
            List<Message> exchange = List.of(
                    new SystemMessage("You plan trips."),
                    new UserMessage("Find me a train to Turin, tag " + tag + "."),
                    AssistantMessage.builder()
                            .content("")
                            .properties(Map.of())
                            .toolCalls(List.of(new AssistantMessage.ToolCall(
                                    "call_7", "function", "trains", "{\"to\":\"Turin\"}")))
                            .build(),
                    ToolResponseMessage.builder()
                            .responses(List.of(new ToolResponseMessage.ToolResponse("call_7", "trains", "09:12 TGV")))
                            .build(),
                    new AssistantMessage("The 09:12 TGV goes to Turin."));

            memory.add(conversation, exchange);
            memory.add(conversation, new UserMessage("Book it, tag " + tag + "."));

            List<Message> back = repository.findByConversationId(conversation);
            assertThat(back)
                    .extracting(m -> m.getMessageType().getValue())
                    .containsExactly("system", "user", "assistant", "tool", "assistant", "user");
            assertThat(((AssistantMessage) back.get(2)).getToolCalls())
                    .containsExactly(
                            new AssistantMessage.ToolCall("call_7", "function", "trains", "{\"to\":\"Turin\"}"));
            assertThat(((ToolResponseMessage) back.get(3)).getResponses())
                    .containsExactly(new ToolResponseMessage.ToolResponse("call_7", "trains", "09:12 TGV"));
            assertThat(repository.findConversationIds()).containsExactly(conversation);
            // The dialogue is dora's session's turns, each once, from which Memoir writes her memory.
            String session = api.get(key, "/sessions?userId=dora")
                    .body()
                    .path("items")
                    .get(0)
                    .path("id")
                    .asString();
            assertThat(api.get(key, "/sessions/" + session)
                            .body()
                            .path("turns")
                            .valueStream()
                            .map(t -> t.path("content").asString())
                            .toList())
                    .containsExactly(
                            "Find me a train to Turin, tag " + tag + ".",
                            "The 09:12 TGV goes to Turin.",
                            "Book it, tag " + tag + ".");

            memory.clear(conversation);
            assertThat(repository.findByConversationId(conversation)).isEmpty();
            assertThat(repository.findConversationIds()).isEmpty();
        }
    }
}
