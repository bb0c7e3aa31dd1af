package dev.memoir.archive.dataexport;

import java.io.IOException;
import java.io.InputStream;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.archive.api.ExportReport;
import dev.memoir.archive.api.ExportSource;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.memory.MemoryStrategy;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/users/{userId}/import")
@Tag(name = "Users", description = "The tenant's users: everyone with a session or a memory")
class ExportImportController {

    private static final String ZIP = "application/zip";
    /** What browsers on Windows send for a .zip file. */
    private static final String WINDOWS_ZIP = "application/x-zip-compressed";

    private static final String DESCRIPTION = """
            Each conversation becomes a closed session of the user, titled as the export titles it, with its user \\
            and assistant messages as turns dated by their messages' times; system prompts, tool calls and \\
            outputs, hidden and empty messages are skipped, and parts that are not text (images, files) left \\
            out, each counted in the report. A message longer than a turn may be (32000 characters) becomes \\
            consecutive turns split at paragraph boundaries. Sessions are stored and closed in the order their \\
            dialogue happened, each conversation whole or not at all; their close memories are then written by \\
            the background jobs (progress per session: GET /sessions/{id}). The export's conversation id is the \\
            key: importing the same export again stores nothing, and a conversation that has grown since stores \\
            only its new messages, in a new session. The body is the export's conversations.json or its whole \\
            zip, streamed, up to memoir.api.max-archive-size. See docs/api.md#importing-a-chatgpt-or-claude-export.""";

    private final ExportImporter importer;

    ExportImportController(ExportImporter importer) {
        this.importer = importer;
    }

    @PostMapping(
            value = "/chatgpt",
            consumes = {MediaType.APPLICATION_JSON_VALUE, ZIP, WINDOWS_ZIP, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @Operation(
            summary = "Import a ChatGPT data export as this user's sessions",
            description = "ChatGPT keeps every edit and regenerated answer as a branch; the branch imported is the "
                    + "one the conversation ended on (the path to its current_node). " + DESCRIPTION,
            requestBody =
                    @RequestBody(
                            content = {
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        array =
                                                @ArraySchema(
                                                        schema =
                                                                @Schema(
                                                                        implementation =
                                                                                ExportSchemas.ChatGptConversation
                                                                                        .class))),
                                @Content(mediaType = ZIP, schema = @Schema(type = "string", format = "binary"))
                            }),
            responses = {
                @ApiResponse(responseCode = "200", description = "The report, conversation by conversation"),
                @ApiResponse(
                        responseCode = "400",
                        description =
                                "An export that cannot be read as a whole "
                                        + "(invalid-export: not JSON or UTF-8, not an array of conversations, cut short, a zip "
                                        + "without conversations.json, Claude's export), or an unknown strategy; nothing stored"),
                @ApiResponse(responseCode = "413", description = "Larger than memoir.api.max-archive-size")
            })
    ExportReport importChatGpt(
            TenantId tenant,
            @Parameter(description = "The user the conversations are imported as") @PathVariable @UserIdentifier
                    String userId,
            @Parameter(
                            description = "The memory strategy preset of the imported sessions; the service's default "
                                    + "when omitted")
                    @RequestParam(required = false)
                    MemoryStrategy strategy,
            InputStream body)
            throws IOException {
        return importer.importExport(tenant, userId, ExportSource.CHATGPT, strategy, body);
    }

    @PostMapping(
            value = "/claude",
            consumes = {MediaType.APPLICATION_JSON_VALUE, ZIP, WINDOWS_ZIP, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @Operation(
            summary = "Import a Claude data export as this user's sessions",
            description = "Claude's messages are read in order (or, where the export names the conversation's "
                    + "current_leaf_message_uuid and each message's parent, the branch ending there); text blocks "
                    + "are the turn, tool_use, tool_result and thinking blocks, attachments and files are parts that "
                    + "are not text. " + DESCRIPTION,
            requestBody =
                    @RequestBody(
                            content = {
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        array =
                                                @ArraySchema(
                                                        schema =
                                                                @Schema(
                                                                        implementation =
                                                                                ExportSchemas.ClaudeConversation
                                                                                        .class))),
                                @Content(mediaType = ZIP, schema = @Schema(type = "string", format = "binary"))
                            }),
            responses = {
                @ApiResponse(responseCode = "200", description = "The report, conversation by conversation"),
                @ApiResponse(
                        responseCode = "400",
                        description =
                                "An export that cannot be read as a whole "
                                        + "(invalid-export: not JSON or UTF-8, not an array of conversations, cut short, a zip "
                                        + "without conversations.json, ChatGPT's export), or an unknown strategy; nothing stored"),
                @ApiResponse(responseCode = "413", description = "Larger than memoir.api.max-archive-size")
            })
    ExportReport importClaude(
            TenantId tenant,
            @Parameter(description = "The user the conversations are imported as") @PathVariable @UserIdentifier
                    String userId,
            @Parameter(
                            description = "The memory strategy preset of the imported sessions; the service's default "
                                    + "when omitted")
                    @RequestParam(required = false)
                    MemoryStrategy strategy,
            InputStream body)
            throws IOException {
        return importer.importExport(tenant, userId, ExportSource.CLAUDE, strategy, body);
    }
}
