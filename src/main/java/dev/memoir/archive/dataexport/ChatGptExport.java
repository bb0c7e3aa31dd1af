package dev.memoir.archive.dataexport;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.memoir.archive.dataexport.ExportedConversation.Message;
import dev.memoir.archive.dataexport.ExportedConversation.Skip;
import dev.memoir.session.api.Role;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one conversation of a ChatGPT export's {@code conversations.json}: an object with {@code conversation_id}
 * (or {@code id}), {@code title}, {@code create_time} and {@code update_time} (epoch seconds), {@code mapping} (node id
 * → {@code {id, message, parent, children}}) and {@code current_node}. Every edit and regeneration is a branch of
 * the mapping's tree; the dialogue is the path from the root to {@code current_node}, the branch the user ended on.
 * A message has {@code author.role} (user, assistant, system, tool), {@code content.content_type} and
 * {@code content.parts}, {@code create_time}, {@code recipient} ("all" unless it is a call of a tool) and
 * {@code metadata.is_visually_hidden_from_conversation}.
 */
final class ChatGptExport {

    /** Content types that are the model working with a tool, not talking to the user. */
    private static final Set<String> TOOL_CONTENT = Set.of(
            "code",
            "execution_output",
            "tether_browsing_display",
            "tether_quote",
            "system_error",
            "computer_output",
            "sonic_webpage");

    /** Content types that are the model's thinking, which the conversation shows folded away if at all. */
    private static final Set<String> THOUGHT_CONTENT = Set.of("thoughts", "reasoning_recap");

    private ChatGptExport() {}

    /** The field that holds the messages, read node by node. */
    static final String MESSAGES = "mapping";

    /** The conversation's other fields that are read; the rest are skipped. */
    static final Set<String> FIELDS = Set.of("conversation_id", "id", "title", "create_time", "current_node");

    /** Whether the conversation's fields look like one of this export rather than of Claude's. */
    static boolean looksLikeIt(Set<String> names) {
        return names.contains(MESSAGES);
    }

    /** A node of the mapping as it is kept: its parent, and its message (or why it cannot be read, or none). */
    record Node(String parent, Message message, String problem) {

        /** A value of the mapping that is not a node at all: taken as missing. */
        static final Node NOT_A_NODE = new Node(null, null, null);
    }

    /** A node of the mapping by its key, made compact as it is read. */
    record KeyedNode(String key, Node node) {}

    /**
     * The node as it is kept. Its message is read now; one that cannot be read keeps why, which refuses the
     * conversation only if the node is on the dialogue's path.
     */
    static KeyedNode node(String key, JsonNode node) {
        if (!node.isObject()) {
            return new KeyedNode(key, Node.NOT_A_NODE);
        }
        String parent = text(node.get("parent"));
        JsonNode message = node.get("message");
        if (message == null || !message.isObject()) {
            return new KeyedNode(key, new Node(parent, null, null));
        }
        try {
            return new KeyedNode(key, new Node(parent, message(message, text(node.get("id"))), null));
        } catch (ExportTimes.UnreadableTime | Unreadable e) {
            return new KeyedNode(key, new Node(parent, null, e.getMessage()));
        }
    }

    static ExportedConversation read(ConversationStream<KeyedNode> conversation) {
        ObjectNode fields = conversation.fields();
        String id = text(fields.get("conversation_id"));
        if (id == null) {
            id = text(fields.get("id"));
        }
        String title = text(fields.get("title"));
        if (id == null || id.isBlank()) {
            return ExportedConversation.refused(
                    null, title, "it has no conversation_id or id, which is the " + "import's key");
        }
        try {
            return new ExportedConversation(
                    id,
                    title,
                    ExportTimes.epochSeconds(fields.get("create_time"), "create_time"),
                    messages(conversation),
                    null);
        } catch (ExportTimes.UnreadableTime | Unreadable e) {
            return ExportedConversation.refused(id, title, e.getMessage());
        }
    }

    private static final class Unreadable extends RuntimeException {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    private static List<Message> messages(ConversationStream<KeyedNode> conversation) {
        if (conversation.messages() != ConversationStream.Shape.OBJECT) {
            throw new Unreadable("it has no mapping object");
        }
        Map<String, Node> mapping = new HashMap<>();
        conversation.elements().forEach(keyed -> mapping.put(keyed.key(), keyed.node()));
        String current = text(conversation.fields().get("current_node"));
        if (current == null) {
            throw new Unreadable("it has no current_node");
        }
        // From the current node up to the root, guarding against a cycle.
        List<Node> path = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String nodeId = current; nodeId != null; ) {
            if (!seen.add(nodeId)) {
                throw new Unreadable("its mapping has a cycle through node " + nodeId);
            }
            Node node = mapping.get(nodeId);
            if (node == null || node == Node.NOT_A_NODE) {
                throw new Unreadable(
                        nodeId.equals(current)
                                ? "its current_node " + nodeId + " is not in its mapping"
                                : "node " + nodeId
                                        + ", a parent on the path to its current_node, is not in its mapping");
            }
            path.add(node);
            nodeId = node.parent();
        }
        List<Message> messages = new ArrayList<>();
        for (int i = path.size() - 1; i >= 0; i--) {
            Node node = path.get(i);
            if (node.problem() != null) {
                throw new Unreadable(node.problem());
            }
            if (node.message() != null) {
                messages.add(node.message());
            }
        }
        return messages;
    }

    private static Message message(JsonNode message, String nodeId) {
        String id = text(message.get("id"));
        if (id == null) {
            id = nodeId;
        }
        if (id == null) {
            throw new Unreadable("a message on its path has no id");
        }
        Instant time = ExportTimes.epochSeconds(message.get("create_time"), "message " + id + "'s create_time");
        String role = text(message.path("author").get("role"));
        JsonNode content = message.path("content");
        String contentType = text(content.get("content_type"));
        String recipient = text(message.get("recipient"));
        boolean hidden = message.path("metadata")
                .path("is_visually_hidden_from_conversation")
                .asBoolean(false);
        if ("system".equals(role) || "user_editable_context".equals(contentType)) {
            return Message.skipped(id, Skip.SYSTEM, time, 0);
        }
        if ("tool".equals(role)
                || (recipient != null && !recipient.equals("all"))
                || (contentType != null && TOOL_CONTENT.contains(contentType))) {
            return Message.skipped(id, Skip.TOOL, time, 0);
        }
        if (hidden || (contentType != null && THOUGHT_CONTENT.contains(contentType))) {
            return Message.skipped(id, Skip.HIDDEN, time, 0);
        }
        if (!"user".equals(role) && !"assistant".equals(role)) {
            // Another author (a plugin, a "critic"): not a turn of the user's dialogue with the assistant.
            return Message.skipped(id, Skip.TOOL, time, 0);
        }
        StringBuilder text = new StringBuilder();
        int nonText = 0;
        JsonNode parts = content.get("parts");
        if (parts != null && parts.isArray()) {
            for (JsonNode part : parts) {
                String words = part.isString()
                        ? part.stringValue()
                        // A voice conversation's part: what was said, transcribed.
                        : part.isObject() && "audio_transcription".equals(text(part.get("content_type")))
                                ? text(part.get("text"))
                                : null;
                if (words == null) {
                    if (!part.isNull()) {
                        nonText++;
                    }
                } else if (!words.isEmpty()) {
                    text.append(text.isEmpty() ? "" : "\n\n").append(words);
                }
            }
        } else if (content.get("text") != null && content.get("text").isString()) {
            text.append(content.get("text").stringValue());
        } else if (content.isString()) {
            // Not how ChatGPT writes a message, but plainly its text.
            text.append(content.stringValue());
        }
        return Message.dialogue(id, Role.ofMessageRole(role).orElseThrow(), text.toString(), time, nonText);
    }

    private static String text(JsonNode node) {
        return node != null && node.isString() ? node.stringValue() : null;
    }
}
