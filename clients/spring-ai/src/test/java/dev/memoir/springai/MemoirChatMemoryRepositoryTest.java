package dev.memoir.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

class MemoirChatMemoryRepositoryTest {

    private static ConversationMessage user(String text) {
        return new ConversationMessage("user", text, null, null, null);
    }

    private static ConversationMessage assistant(String text) {
        return new ConversationMessage("assistant", text, null, null, null);
    }

    private static ConversationMessage system(String text) {
        return new ConversationMessage("system", text, null, null, null);
    }

    @Test
    void aWindowOfTheStoredTailAndNewMessagesSendsOnlyTheNewOnes() {
        List<ConversationMessage> stored = List.of(user("a"), assistant("b"), user("c"), assistant("d"));
        List<ConversationMessage> window = List.of(user("c"), assistant("d"), user("e"));

        assertThat(MemoirChatMemoryRepository.notYetStored(stored, window)).containsExactly(user("e"));
    }

    @Test
    void theSameTextSaidAgainIsNewWhenItFollowsTheStoredTail() {
        List<ConversationMessage> stored = List.of(user("yes"), assistant("ok"));

        assertThat(MemoirChatMemoryRepository.notYetStored(stored, List.of(user("yes"), assistant("ok"), user("yes"))))
                .containsExactly(user("yes"));
        assertThat(MemoirChatMemoryRepository.notYetStored(List.of(), List.of(user("yes"))))
                .containsExactly(user("yes"));
    }

    @Test
    void aSystemMessageMovedToTheFrontIsNotSentTwiceAndANewOneIs() {
        List<ConversationMessage> stored = List.of(system("Be brief."), user("a"), assistant("b"));

        assertThat(MemoirChatMemoryRepository.notYetStored(
                        stored, List.of(system("Be brief."), user("a"), assistant("b"), user("c"))))
                .containsExactly(user("c"));
        assertThat(MemoirChatMemoryRepository.notYetStored(
                        stored, List.of(system("Be kind."), user("a"), assistant("b"))))
                .containsExactly(system("Be kind."));
    }

    @Test
    void toolCallsAndToolResponsesSurviveTheRoundTripInOrder() {
        List<Message> messages = List.of(
                new SystemMessage("You answer about weather."),
                new UserMessage("Weather in Lyon?"),
                AssistantMessage.builder()
                        .content("")
                        .properties(Map.of())
                        .toolCalls(List.of(
                                new AssistantMessage.ToolCall("c1", "function", "weather", "{\"city\":\"Lyon\"}"),
                                new AssistantMessage.ToolCall("c2", "function", "time", "{}")))
                        .build(),
                ToolResponseMessage.builder()
                        .responses(List.of(
                                new ToolResponseMessage.ToolResponse("c1", "weather", "18 C"),
                                new ToolResponseMessage.ToolResponse("c2", "time", "noon")))
                        .build(),
                new AssistantMessage("18 C at noon."));

        List<ConversationMessage> wire = MemoirChatMemoryRepository.fromSpring(messages);
        List<Message> back = MemoirChatMemoryRepository.toSpring(wire);

        assertThat(wire)
                .extracting(ConversationMessage::role)
                .containsExactly("system", "user", "assistant", "tool", "tool", "assistant");
        assertThat(back).hasSize(5);
        assertThat(back.get(2)).isInstanceOf(AssistantMessage.class);
        assertThat(((AssistantMessage) back.get(2)).getToolCalls())
                .containsExactly(
                        new AssistantMessage.ToolCall("c1", "function", "weather", "{\"city\":\"Lyon\"}"),
                        new AssistantMessage.ToolCall("c2", "function", "time", "{}"));
        assertThat(((ToolResponseMessage) back.get(3)).getResponses())
                .containsExactly(
                        new ToolResponseMessage.ToolResponse("c1", "weather", "18 C"),
                        new ToolResponseMessage.ToolResponse("c2", "time", "noon"));
        assertThat(back.get(4).getText()).isEqualTo("18 C at noon.");
        assertThat(back.get(0)).isInstanceOf(SystemMessage.class);
    }

    @Test
    void aMessageMemoirStoredWithItsSecretMaskedIsTheMessageSentAgain() {
        List<ConversationMessage> stored = List.of(user("My card is [payment-card #5c1e07aa], charge it."));

        assertThat(MemoirChatMemoryRepository.notYetStored(
                        stored, List.of(user("My card is 4111 1111 1111 1111, charge it."), assistant("Done."))))
                .containsExactly(assistant("Done."));
        assertThat(MemoirChatMemoryRepository.notYetStored(stored, List.of(user("My card is 4111, refund it."))))
                .as("the words around the mask still count")
                .containsExactly(user("My card is 4111, refund it."));
    }

    @Test
    void aConversationIsTheUsersNamedBeforeItsFirstColon() {
        assertThat(MemoirChatMemoryRepository.userBeforeColon("alice:support:42"))
                .isEqualTo("alice");
        assertThat(MemoirChatMemoryRepository.userBeforeColon("bob")).isEqualTo("bob");
        assertThat(MemoirChatMemoryRepository.userBeforeColon(":x")).isEqualTo(":x");
    }
}
