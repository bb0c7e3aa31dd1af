package dev.memoir.archive;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.memoir.support.Json;

/**
 * One conversation of ChatGPT's {@code conversations.json}, as its public descriptions give it: its mapping, built
 * node by node (no real user's data).
 */
public final class ChatGptConversation {
    final String id;
    final String title;
    final double created;
    final Map<String, Map<String, Object>> mapping = new LinkedHashMap<>();
    String current;

    public ChatGptConversation(String id, String title, Instant created) {
        this.id = id;
        this.title = title;
        this.created = created.getEpochSecond();
        mapping.put("root", node("root", null, null));
        current = "root";
    }

    private static Map<String, Object> node(String id, String parent, Map<String, Object> message) {
        Map<String, Object> node =
                Json.fields("id", id, "message", message, "parent", parent, "children", new ArrayList<String>());
        return node;
    }

    /** A message under {@code parent} (null: the current node), which becomes the current node. */
    @SuppressWarnings("unchecked")
    ChatGptConversation add(
            String parent, String nodeId, String role, Map<String, Object> content, Instant time, Object... more) {
        String under = parent == null ? current : parent;
        Map<String, Object> message = Json.fields(
                "id",
                nodeId,
                "author",
                Json.fields("role", role, "name", null, "metadata", Map.of()),
                "create_time",
                time == null ? null : time.getEpochSecond() + time.getNano() / 1e9,
                "update_time",
                null,
                "content",
                content,
                "status",
                "finished_successfully",
                "end_turn",
                true,
                "weight",
                1.0,
                "metadata",
                Map.of(),
                "recipient",
                "all");
        message.putAll(Json.fields(more));
        mapping.put(nodeId, node(nodeId, under, message));
        ((List<String>) mapping.get(under).get("children")).add(nodeId);
        current = nodeId;
        return this;
    }

    public ChatGptConversation text(String nodeId, String role, String text, Instant time, Object... more) {
        return add(null, nodeId, role, Json.fields("content_type", "text", "parts", List.of(text)), time, more);
    }

    public Map<String, Object> json() {
        return Json.fields(
                "title",
                title,
                "create_time",
                created,
                "update_time",
                created + 3600,
                "mapping",
                mapping,
                "moderation_results",
                List.of(),
                "current_node",
                current,
                "plugin_ids",
                null,
                "conversation_id",
                id,
                "conversation_template_id",
                null,
                "gizmo_id",
                null,
                "is_archived",
                false,
                "safe_urls",
                List.of(),
                "default_model_slug",
                "gpt-4o",
                "id",
                id);
    }

    /** The {@code conversations.json} of these conversations (each a {@link #json()}, or any other value). */
    public static byte[] export(Object... conversations) {
        return Json.write(List.of(conversations)).getBytes(StandardCharsets.UTF_8);
    }
}
