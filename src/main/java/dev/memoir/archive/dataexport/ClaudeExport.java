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
 * Reads one conversation of a Claude export's {@code conversations.json}: an object with {@code uuid}, {@code name},
 * {@code created_at} and {@code updated_at} (ISO 8601) and {@code chat_messages}, each with {@code uuid},
 * {@code sender} (human or assistant), {@code created_at}, {@code text}, {@code content} (blocks of a {@code type}:
 * text, tool_use, tool_result, thinking, ...), {@code attachments} and {@code files}. The messages are the dialogue
 * in order; where the conversation names its {@code current_leaf_message_uuid} and its messages their
 * {@code parent_message_uuid}, the dialogue is the branch that ends at that leaf.
 */
final class ClaudeExport {

    private ClaudeExport() {}

    /** The field that holds the messages, read message by message. */
    static final String MESSAGES = "chat_messages";

    /** The conversation's other fields that are read; the rest are skipped. */
    static final Set<String> FIELDS = Set.of("uuid", "name", "created_at", "current_leaf_message_uuid");

    /** Whether the conversation's fields look like one of this export rather than of ChatGPT's. */
    static boolean looksLikeIt(Set<String> names) {
        return names.contains(MESSAGES);
    }

    /**
     * A chat message as it is kept: its uuid and parent's, and the message read (or why it cannot be, which refuses
     * the conversation only if the message is on the dialogue's branch).
     */
    record Item(boolean isObject, String uuid, boolean hasParent, String parent, Message message, String problem) {}

    /** The chat message as it is kept, made compact as it is read. */
    static Item item(String unused, JsonNode message) {
        if (!message.isObject()) {
            return new Item(false, null, false, null, null, null);
        }
        String uuid = text(message.get("uuid"));
        boolean hasParent = message.has("parent_message_uuid");
        String parent = text(message.get("parent_message_uuid"));
        try {
            return new Item(true, uuid, hasParent, parent, message(message), null);
        } catch (ExportTimes.UnreadableTime | Unreadable e) {
            return new Item(true, uuid, hasParent, parent, null, e.getMessage());
        }
    }

    static ExportedConversation read(ConversationStream<Item> conversation) {
        ObjectNode fields = conversation.fields();
        String id = text(fields.get("uuid"));
        String title = text(fields.get("name"));
        if (id == null || id.isBlank()) {
            return ExportedConversation.refused(null, title, "it has no uuid, which is the import's key");
        }
        try {
            if (conversation.messages() != ConversationStream.Shape.ARRAY) {
                return ExportedConversation.refused(id, title, "it has no chat_messages array");
            }
            List<Message> read = new ArrayList<>();
            for (Item message : branch(fields, conversation.elements())) {
                if (!message.isObject()) {
                    return ExportedConversation.refused(id, title, "a chat message is not an object");
                }
                if (message.problem() != null) {
                    return ExportedConversation.refused(id, title, message.problem());
                }
                read.add(message.message());
            }
            return new ExportedConversation(
                    id, title, ExportTimes.iso(fields.get("created_at"), "created_at"), read, null);
        } catch (ExportTimes.UnreadableTime | Unreadable e) {
            return ExportedConversation.refused(id, title, e.getMessage());
        }
    }

    private static final class Unreadable extends RuntimeException {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** The messages in order, or the branch ending at the current leaf where the export names one. */
    private static List<Item> branch(ObjectNode fields, List<Item> all) {
        String leaf = text(fields.get("current_leaf_message_uuid"));
        if (leaf == null || all.stream().noneMatch(Item::hasParent)) {
            return all;
        }
        Map<String, Item> byId = new HashMap<>();
        all.forEach(m -> {
            if (m.uuid() != null) {
                byId.put(m.uuid(), m);
            }
        });
        if (!byId.containsKey(leaf)) {
            throw new Unreadable("its current_leaf_message_uuid " + leaf + " is none of its messages");
        }
        List<Item> path = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String uuid = leaf; uuid != null && byId.containsKey(uuid); ) {
            if (!seen.add(uuid)) {
                throw new Unreadable("its messages' parents form a cycle through " + uuid);
            }
            Item message = byId.get(uuid);
            path.addFirst(message);
            uuid = message.parent();
        }
        return path;
    }

    private static Message message(JsonNode message) {
        String id = text(message.get("uuid"));
        if (id == null) {
            throw new Unreadable("a chat message has no uuid");
        }
        Instant time = ExportTimes.iso(message.get("created_at"), "message " + id + "'s created_at");
        String sender = text(message.get("sender"));
        Role role = "human".equals(sender) || "user".equals(sender)
                ? Role.USER
                : "assistant".equals(sender) ? Role.ASSISTANT : null;
        int nonText = count(message.get("attachments")) + count(message.get("files"));
        if (role == null) {
            return Message.skipped(id, Skip.SYSTEM, time, nonText);
        }
        JsonNode content = message.get("content");
        StringBuilder text = new StringBuilder();
        boolean tool = false;
        if (content != null && content.isArray() && !content.isEmpty()) {
            for (JsonNode block : content) {
                String type = text(block.get("type"));
                if ("text".equals(type)
                        && block.get("text") != null
                        && block.get("text").isString()) {
                    String words = block.get("text").stringValue();
                    if (!words.isEmpty()) {
                        text.append(text.isEmpty() ? "" : "\n\n").append(words);
                    }
                } else {
                    tool |= type != null && type.startsWith("tool_");
                    nonText++;
                }
            }
        } else if (message.get("text") != null && message.get("text").isString()) {
            text.append(message.get("text").stringValue());
        }
        if (text.isEmpty() && tool) {
            return Message.skipped(id, Skip.TOOL, time, nonText);
        }
        return Message.dialogue(id, role, text.toString(), time, nonText);
    }

    private static int count(JsonNode list) {
        return list != null && list.isArray() ? list.size() : 0;
    }

    private static String text(JsonNode node) {
        return node != null && node.isString() ? node.stringValue() : null;
    }
}
