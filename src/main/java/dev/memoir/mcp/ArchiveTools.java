package dev.memoir.mcp;

import java.util.Map;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import dev.memoir.archive.UserArchives;
import dev.memoir.archive.api.ExportReport;
import dev.memoir.archive.api.ExportSource;
import dev.memoir.archive.api.ImportedUser;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.memory.MemoryStrategy;

/**
 * The MCP tools that move a user's memory in and out of Memoir: export and import of a user's archive, and the import
 * of a ChatGPT or Claude export; each answers what the matching REST endpoint answers, up to the MCP request's size.
 */
@Component
class ArchiveTools {

    private final UserArchives archives;

    ArchiveTools(UserArchives archives) {
        this.archives = archives;
    }

    @McpTool(
            name = "export_user",
            title = "Export a user's memory",
            description = """
            Everything Memoir holds for the user as a versioned NDJSON archive (sessions, turns, memories with their \
            validity and vectors, revisions, learning episodes): the archive GET /users/{userId}/export streams, \
            here up to 8 MB. import_user restores it in any Memoir deployment.""",
            annotations =
                    @McpAnnotations(
                            title = "Export a user's memory",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    Map<String, Object> exportUser(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId) {
        return Map.of(
                "archive", archives.export(ToolContext.tenant(context), userId, FieldConstraints.MCP_ARCHIVE_BYTES));
    }

    @McpTool(
            name = "import_user",
            title = "Import a user's memory",
            description = """
            Restores an archive from export_user (or GET /users/{userId}/export) as this user, who must have no \
            sessions or memories yet: whole, with new ids, or not at all. Larger archives go to POST \
            /users/{userId}/import, which streams.""",
            annotations =
                    @McpAnnotations(
                            title = "Import a user's memory",
                            readOnlyHint = false,
                            destructiveHint = false,
                            idempotentHint = false,
                            openWorldHint = false))
    ImportedUser importUser(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId,
            @McpToolParam(description = "The archive's NDJSON text") @NotEmpty String archive) {
        return archives.restore(ToolContext.tenant(context), userId, archive);
    }

    @McpTool(
            name = "import_export",
            title = "Import a ChatGPT or Claude export",
            description = """
            Imports the conversations.json of a ChatGPT or Claude data export as the user's sessions, one closed \
            session per conversation, as POST /users/{userId}/import/chatgpt or /claude does: the user and \
            assistant messages become turns (ChatGPT: the branch the user ended on), the rest is skipped and \
            counted; the answer is a report per conversation. Importing the same export again adds nothing. Here \
            up to the MCP request's size; larger exports, and their zips, go to the REST endpoints, which stream.""",
            annotations =
                    @McpAnnotations(
                            title = "Import a ChatGPT or Claude export",
                            readOnlyHint = false,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    ExportReport importExport(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId,
            @McpToolParam(description = "Which assistant made the export: chatgpt or claude") @NotNull
                    ExportSource source,
            @McpToolParam(description = "The export's conversations.json, as text") @NotEmpty String conversations,
            @McpToolParam(
                            description = "The imported sessions' memory strategy preset; the default when omitted",
                            required = false)
                    MemoryStrategy strategy) {
        return archives.importExport(ToolContext.tenant(context), userId, source, strategy, conversations);
    }
}
