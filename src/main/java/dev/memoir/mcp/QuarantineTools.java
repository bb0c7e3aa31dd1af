package dev.memoir.mcp;

import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.memory.MemoryList;
import dev.memoir.memory.MemoryQuarantine;
import dev.memoir.memory.MemoryView;

/**
 * The quarantine as MCP tools: the memories held back because their text reads as instructions to an assistant, and
 * releasing one, as {@code GET /memory/quarantine} and {@code POST /memory/{id}/release} answer.
 */
@Component
class QuarantineTools {

    private final MemoryQuarantine quarantine;

    QuarantineTools(MemoryQuarantine quarantine) {
        this.quarantine = quarantine;
    }

    @McpTool(
            name = "list_quarantined_memories",
            title = "List quarantined memories",
            description = """
            Memories held back because their text reads as instructions to an assistant (override phrases, role \
            tags, tool-call JSON, hidden characters, encoded blobs), oldest first, each with screening.signs. They \
            are kept but not read into replies or searches until released.""",
            annotations =
                    @McpAnnotations(
                            title = "List quarantined memories",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    MemoryList listQuarantined(
            McpTransportContext context,
            @McpToolParam(description = "Only this user's; omit for the whole tenant's", required = false)
                    @Size(min = 1, max = FieldConstraints.USER_ID)
                    String userId,
            @McpToolParam(description = "nextCursor of the previous page", required = false) String cursor,
            @McpToolParam(description = "Memories per page, 1 to " + FieldConstraints.MEMORY_PAGE, required = false)
                    @Min(1)
                    @Max(FieldConstraints.MEMORY_PAGE)
                    Integer limit) {
        return quarantine.quarantined(
                ToolContext.tenant(context),
                userId,
                cursor,
                limit == null ? FieldConstraints.MEMORY_PAGE_DEFAULT : limit);
    }

    @McpTool(
            name = "release_memory",
            title = "Release a quarantined memory",
            description = "Lets a quarantined memory be read into replies and searches from now on.",
            annotations =
                    @McpAnnotations(
                            title = "Release a quarantined memory",
                            readOnlyHint = false,
                            destructiveHint = false,
                            idempotentHint = false,
                            openWorldHint = false))
    MemoryView release(McpTransportContext context, @McpToolParam(description = "The memory's id") UUID id) {
        return quarantine.release(ToolContext.tenant(context), id);
    }
}
