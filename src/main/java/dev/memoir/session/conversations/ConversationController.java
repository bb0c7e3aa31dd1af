package dev.memoir.session.conversations;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/conversations")
@Tag(
        name = "Conversations",
        description = "A client's conversation kept whole by its own id (Spring AI's chat memory, say): dialogue as "
                + "turns of sessions, tool calls and tool and system messages beside them")
class ConversationController {

    private final ConversationLog log;

    ConversationController(ConversationLog log) {
        this.log = log;
    }

    @PostMapping("/{conversationId}/messages")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            summary = "Add messages to a conversation",
            description = "Adds the messages after those the conversation holds, into its open session, or a new "
                    + "session of the user when it has none (a session closes after a while without turns; the "
                    + "conversation goes on in the next). User and assistant messages with text are turns, from "
                    + "which memory is written as from any session's; tool calls, tool results, system messages and "
                    + "messages without text are kept beside them and read back in place. Nothing is compared with "
                    + "what is stored: a client sends only what is new (the Spring AI client finds that itself).",
            responses = {
                @ApiResponse(responseCode = "201", description = "Stored"),
                @ApiResponse(responseCode = "400", description = "Invalid conversation id, userId or messages"),
                @ApiResponse(
                        responseCode = "409",
                        description = "conversation-of-another-user: the conversation is another user's")
            })
    ConversationAppended append(
            TenantId tenant,
            @PathVariable @Size(min = 1, max = FieldConstraints.CONVERSATION_ID) String conversationId,
            @Valid @RequestBody ConversationAppend request) {
        return log.append(tenant, conversationId, request);
    }

    @GetMapping("/{conversationId}/messages")
    @Operation(
            summary = "Read a conversation back",
            description = "The conversation's latest messages, oldest first, across the sessions it went on in, "
                    + "each as it was added (an assistant message's tool calls with its text).",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid conversation id or limit"),
                @ApiResponse(responseCode = "404", description = "No such conversation for this tenant")
            })
    ConversationMessages read(
            TenantId tenant,
            @PathVariable @Size(min = 1, max = FieldConstraints.CONVERSATION_ID) String conversationId,
            @Parameter(
                            description = "The most messages answered, the latest ones; 1 to "
                                    + FieldConstraints.CONVERSATION_MESSAGES)
                    @RequestParam(defaultValue = "" + FieldConstraints.CONVERSATION_MESSAGES)
                    @Min(1)
                    @Max(FieldConstraints.CONVERSATION_MESSAGES)
                    int limit) {
        return log.read(tenant, conversationId, limit);
    }

    @GetMapping
    @Operation(
            summary = "List the tenant's conversation ids",
            description = "The most recently started first; delete one with DELETE /conversations/{conversationId}.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid limit")
            })
    ConversationIds list(
            TenantId tenant,
            @Parameter(description = "The most ids answered, 1 to " + FieldConstraints.CONVERSATION_IDS)
                    @RequestParam(defaultValue = "" + FieldConstraints.CONVERSATION_IDS_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.CONVERSATION_IDS)
                    int limit) {
        return log.ids(tenant, limit);
    }
}
