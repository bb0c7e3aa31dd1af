package dev.memoir.mcp;

import java.util.UUID;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import dev.memoir.chat.MemoryChat;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.common.wire.VisibleText;

/**
 * The MCP tool that chats with memory, as {@code POST /chat} does.
 */
@Component
class ChatTools {

    private final MemoryChat chat;

    ChatTools(MemoryChat chat) {
        this.chat = chat;
    }

    @McpTool(
            name = "chat",
            title = "Chat with memory",
            description = """
            Sends the user's message to Memoir's assistant, which answers with what it remembers about the user, \
            stores both turns and learns from the exchange. Without sessionId the user's open conversation \
            continues (started on first use).""",
            annotations =
                    @McpAnnotations(
                            title = "Chat with memory",
                            readOnlyHint = false,
                            destructiveHint = false,
                            idempotentHint = false,
                            openWorldHint = true))
    MemoryChat.Reply chat(
            McpTransportContext context,
            @McpToolParam(description = "The user's message")
                    @NotBlank
                    @VisibleText
                    @Size(max = FieldConstraints.CHAT_MESSAGE)
                    String message,
            @McpToolParam(description = "Required without sessionId. " + ToolContext.USER_ID, required = false)
                    @UserIdentifier
                    String userId,
            @McpToolParam(
                            description = "An open session to chat in (its user must be userId when both are given)",
                            required = false)
                    UUID sessionId) {
        return chat.reply(ToolContext.tenant(context), userId, sessionId, message.strip());
    }
}
