package dev.memoir.archive.dataexport;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The shapes of the exports' conversations, for the OpenAPI description only: Memoir reads the exports as they are
 * (see {@link ChatGptExport} and {@link ClaudeExport}), ignoring what these leave out.
 */
final class ExportSchemas {

    private ExportSchemas() {}

    @Schema(name = "ChatGptConversation", description = "One conversation of a ChatGPT export's conversations.json")
    record ChatGptConversation(
            @Schema(description = "The import's key (or id)")
            String conversation_id,

            String title,
            @Schema(description = "Epoch seconds") Double create_time,

            @Schema(description = "The node the user ended on: the branch imported ends here")
            String current_node,

            @Schema(
                    description = "Node id → {id, message, parent, children}; message has author.role, "
                            + "content.content_type, content.parts, create_time, recipient, metadata")
            Map<String, Object> mapping) {}

    @Schema(name = "ClaudeConversation", description = "One conversation of a Claude export's conversations.json")
    record ClaudeConversation(
            @Schema(description = "The import's key") String uuid,
            String name,
            @Schema(description = "ISO 8601") String created_at,
            List<ClaudeMessage> chat_messages) {}

    @Schema(name = "ClaudeMessage", description = "One message of a Claude conversation")
    record ClaudeMessage(
            String uuid,
            @Schema(description = "human or assistant") String sender,
            @Schema(description = "ISO 8601") String created_at,
            String text,

            @Schema(description = "Blocks with a type: text (the turn), tool_use, tool_result, thinking, ...")
            List<Map<String, Object>> content) {}
}
