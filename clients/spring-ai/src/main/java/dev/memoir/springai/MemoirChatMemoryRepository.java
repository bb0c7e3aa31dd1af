package dev.memoir.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI's chat memory store backed by Memoir: a conversation id is a conversation of Memoir
 * ({@code /conversations/{id}}), one user's, going on in that user's sessions, so that Memoir writes long-term memory
 * from its dialogue as from its own chats. Tool calls, tool results and system messages are kept in place.
 *
 * <p>Memoir's turns are append-only: {@link #saveAll} reads the conversation's tail and sends only the messages that
 * follow it. {@link org.springframework.ai.chat.memory.MessageWindowChatMemory} hands it the window it keeps (the
 * stored tail, then what is new), so nothing is stored twice; what a window drops is not deleted. A system message
 * is sent when the conversation does not hold one with the same text yet.
 *
 * <p>The user of a conversation comes from {@code userOfConversation}: by default the part of the id before its first
 * {@code :} ("alice:support-42" is alice's), or the whole id when it has none.
 */
public class MemoirChatMemoryRepository implements ChatMemoryRepository {

    /** The most messages read back: Memoir's limit for one read. */
    static final int MOST_READ = 1000;

    private final MemoirClient client;
    private final Function<String, String> userOfConversation;

    public MemoirChatMemoryRepository(MemoirClient client) {
        this(client, MemoirChatMemoryRepository::userBeforeColon);
    }

    public MemoirChatMemoryRepository(MemoirClient client, Function<String, String> userOfConversation) {
        this.client = client;
        this.userOfConversation = userOfConversation;
    }

    /** "alice:support-42" is alice's; an id without a colon is its own user's. */
    public static String userBeforeColon(String conversationId) {
        int colon = conversationId.indexOf(':');
        return colon > 0 ? conversationId.substring(0, colon) : conversationId;
    }

    @Override
    public List<String> findConversationIds() {
        return client.conversationIds();
    }

    @Override
    public List<Message> findByConversationId(String conversationId) {
        return toSpring(client.conversation(conversationId, MOST_READ));
    }

    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        List<ConversationMessage> given = fromSpring(messages);
        List<ConversationMessage> fresh = notYetStored(client.conversation(conversationId, MOST_READ), given);
        if (!fresh.isEmpty()) {
            client.appendConversation(conversationId, userOfConversation.apply(conversationId), fresh);
        }
    }

    @Override
    public void deleteByConversationId(String conversationId) {
        client.deleteConversation(conversationId);
    }

    /**
     * The given messages that follow what is stored: those after the longest run at the start of {@code given} that
     * ends the stored conversation (system messages aside, which a chat memory moves to the front), and the system
     * messages whose text is not stored yet, first.
     */
    static List<ConversationMessage> notYetStored(List<ConversationMessage> stored, List<ConversationMessage> given) {
        List<ConversationMessage> storedDialogue = withoutSystem(stored);
        List<ConversationMessage> givenDialogue = withoutSystem(given);
        int overlap = 0;
        for (int k = Math.min(storedDialogue.size(), givenDialogue.size()); k > 0; k--) {
            if (startsWithEndOf(givenDialogue, storedDialogue, k)) {
                overlap = k;
                break;
            }
        }
        List<ConversationMessage> fresh = new ArrayList<>();
        for (ConversationMessage message : given) {
            if (isSystem(message) && stored.stream().noneMatch(message::sameAs)) {
                fresh.add(message);
            }
        }
        fresh.addAll(givenDialogue.subList(overlap, givenDialogue.size()));
        return fresh;
    }

    private static boolean startsWithEndOf(List<ConversationMessage> given, List<ConversationMessage> stored, int k) {
        for (int i = 0; i < k; i++) {
            if (!given.get(i).sameAs(stored.get(stored.size() - k + i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSystem(ConversationMessage message) {
        return "system".equals(message.role());
    }

    private static List<ConversationMessage> withoutSystem(List<ConversationMessage> messages) {
        return messages.stream().filter(m -> !isSystem(m)).toList();
    }

    /** Spring AI's messages as Memoir's: a tool response message is one tool message per response. */
    static List<ConversationMessage> fromSpring(List<Message> messages) {
        List<ConversationMessage> out = new ArrayList<>();
        for (Message message : messages) {
            if (message instanceof ToolResponseMessage tools) {
                tools.getResponses()
                        .forEach(r ->
                                out.add(new ConversationMessage("tool", r.responseData(), null, r.id(), r.name())));
            } else if (message instanceof AssistantMessage assistant) {
                out.add(new ConversationMessage(
                        "assistant",
                        assistant.getText(),
                        assistant.getToolCalls().stream()
                                .map(c -> new ConversationMessage.ToolCall(c.id(), c.type(), c.name(), c.arguments()))
                                .toList(),
                        null,
                        null));
            } else {
                out.add(new ConversationMessage(
                        message.getMessageType().getValue(), message.getText(), null, null, null));
            }
        }
        return out;
    }

    /** Memoir's messages as Spring AI's: consecutive tool messages are one tool response message. */
    static List<Message> toSpring(List<ConversationMessage> messages) {
        List<Message> out = new ArrayList<>();
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        for (ConversationMessage message : messages) {
            if ("tool".equals(message.role())) {
                responses.add(new ToolResponseMessage.ToolResponse(
                        message.toolCallId(), message.name(), text(message.content())));
                continue;
            }
            flush(responses, out);
            String text = text(message.content());
            switch (message.role()) {
                case "system" -> out.add(new SystemMessage(text));
                case "assistant" ->
                    out.add(AssistantMessage.builder()
                            .content(text)
                            .properties(Map.of())
                            .toolCalls(message.toolCalls().stream()
                                    .map(c -> new AssistantMessage.ToolCall(c.id(), c.type(), c.name(), c.arguments()))
                                    .toList())
                            .build());
                default -> out.add(new UserMessage(text));
            }
        }
        flush(responses, out);
        return out;
    }

    private static void flush(List<ToolResponseMessage.ToolResponse> responses, List<Message> out) {
        if (!responses.isEmpty()) {
            out.add(ToolResponseMessage.builder()
                    .responses(List.copyOf(responses))
                    .build());
            responses.clear();
        }
    }

    private static String text(String content) {
        return content == null ? "" : content;
    }
}
