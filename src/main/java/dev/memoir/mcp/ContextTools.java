package dev.memoir.mcp;

import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.common.wire.VisibleText;
import dev.memoir.context.ContextQuery;
import dev.memoir.context.MemoryContext;
import dev.memoir.context.MemoryContexts;
import dev.memoir.memory.api.Trust;

/** The reply's memory for an agent that calls its model itself: what POST /context answers. */
@Component
class ContextTools {

    private final MemoryContexts contexts;

    ContextTools(MemoryContexts contexts) {
        this.contexts = contexts;
    }

    @McpTool(
            name = "get_context",
            title = "Get the memory for a reply",
            description = """
            Answers the memory Memoir's own chat would give its model for a reply to the message: the user's \
            standing instructions, then what is remembered, laid out within the token budget, its [Memory] \
            entries numbered. Put text in your system prompt. The same as POST /context.""",
            annotations =
                    @McpAnnotations(
                            title = "Get the memory for a reply",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = false,
                            openWorldHint = false))
    MemoryContext getContext(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId,
            @McpToolParam(description = "The message a reply would answer")
                    @NotBlank
                    @VisibleText
                    @Size(max = FieldConstraints.CHAT_MESSAGE)
                    String query,
            @McpToolParam(description = "A session of the user whose memory settings apply", required = false)
                    UUID sessionId,
            @McpToolParam(
                            description = "With sessionId: memories resting on its last this many turns are left out",
                            required = false)
                    @Min(0)
                    @Max(FieldConstraints.EXCLUDED_RECENT_TURNS)
                    Integer excludeRecentTurns,
            @McpToolParam(
                            description = "The most memory tokens; the settings' promptTokenBudget when omitted",
                            required = false)
                    @Min(FieldConstraints.PROMPT_TOKEN_BUDGET_MIN)
                    @Max(FieldConstraints.PROMPT_TOKEN_BUDGET_MAX)
                    Integer tokenBudget,
            @McpToolParam(
                            description = "The least trust of a memory shown: low, medium or high; the settings' "
                                    + "(any by default) when omitted",
                            required = false)
                    Trust minTrust) {
        if (excludeRecentTurns != null && sessionId == null) {
            throw new InvalidRequestException(
                    "excludeRecentTurns", "needs a sessionId: it counts that session's turns");
        }
        return contexts.build(
                ToolContext.tenant(context),
                new ContextQuery(
                        userId,
                        query.strip(),
                        sessionId,
                        excludeRecentTurns == null ? 0 : excludeRecentTurns,
                        tokenBudget,
                        null,
                        minTrust));
    }
}
