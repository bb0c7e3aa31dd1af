package dev.memoir.mcp;

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
import dev.memoir.memory.api.MemoryView;

/**
 * The quarantine as an MCP tool: which memories are held back because their text reads as instructions to an
 * assistant, with the signs found but not the text, since the agent calling the tool is the model the quarantine
 * keeps that text from. Releasing one is a person's decision, made through REST ({@code POST /memory/{id}/release})
 * or by the operator, never a tool the model could be talked into calling.
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
            tags, tool-call JSON, hidden characters, encoded blobs), oldest first, each with screening.signs and \
            without its text. They are kept but not read into replies or searches until a person releases them \
            (REST: POST /memory/{id}/release).""",
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
            @McpToolParam(description = "nextCursor of the previous page", required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor,
            @McpToolParam(description = "Memories per page, 1 to " + FieldConstraints.MEMORY_PAGE, required = false)
                    @Min(1)
                    @Max(FieldConstraints.MEMORY_PAGE)
                    Integer limit) {
        MemoryList page = quarantine.quarantined(
                ToolContext.tenant(context),
                userId,
                cursor,
                limit == null ? FieldConstraints.MEMORY_PAGE_DEFAULT : limit);
        return new MemoryList(page.items().stream().map(MemoryView::withoutText).toList(), page.nextCursor());
    }
}
