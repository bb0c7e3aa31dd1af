package dev.memoir.context;

import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/context")
@Tag(name = "Context", description = "The memory a reply request would carry, for a client that calls its model itself")
class ContextController {

    private final MemoryContexts contexts;

    ContextController(MemoryContexts contexts) {
        this.contexts = contexts;
    }

    @PostMapping
    @Operation(
            summary = "Get the memory a reply to a message would carry",
            description = "Answers what POST /chat places in its reply request for the same user, message and memory "
                    + "settings: the standing instructions, then the memories found, laid out within the token "
                    + "budget (neighbouring turns, excerpts of long memories, grouped by session and date), the "
                    + "[Memory] entries numbered. Put `text` in your system message and ask your model to cite entry "
                    + "numbers; POST /context/{id}/citations records them. Nothing is written to the user's memory "
                    + "(record the exchange through a session's turns). Costs a search (and, with self-reflection on, "
                    + "one model call, as a chat's recall does); the budget is what your model reads: about 2,000 "
                    + "tokens by default.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The memory block, its entries and its trace id"),
                @ApiResponse(
                        responseCode = "400",
                        description = "Neither query nor a user message given, or both; a session of another user; "
                                + "memory settings beside a session"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant"),
                @ApiResponse(
                        responseCode = "502",
                        description = "Self-reflection's model call failed (code model-error)"),
                @ApiResponse(
                        responseCode = "503",
                        description = "The chat model is unreachable or overloaded (code model-unavailable)"),
                @ApiResponse(
                        responseCode = "504",
                        description = "The chat model did not answer in time (code model-timeout)")
            })
    MemoryContext context(TenantId tenant, @Valid @RequestBody ContextRequest request) {
        if (request.excludeRecentTurns() != null && request.sessionId() == null) {
            throw new InvalidRequestException(
                    "excludeRecentTurns", "needs a sessionId: it counts that session's turns");
        }
        return contexts.build(
                tenant,
                new ContextQuery(
                        request.userId(),
                        query(request),
                        request.sessionId(),
                        request.excludeRecentTurns() == null ? 0 : request.excludeRecentTurns(),
                        request.tokenBudget(),
                        request.memory(),
                        request.minTrust()));
    }

    /** The request's query, or its last user message's: exactly one of the two. */
    private static String query(ContextRequest request) {
        boolean hasQuery = request.query() != null && !request.query().isBlank();
        boolean hasMessages = request.messages() != null && !request.messages().isEmpty();
        if (hasQuery == hasMessages) {
            throw new InvalidRequestException(
                    "query", hasQuery ? "must not be given with messages" : "must be given, or messages");
        }
        if (hasQuery) {
            return request.query().strip();
        }
        List<ContextRequest.Message> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            // Chat APIs write roles in lower case; "User" is the same role. A message of invisible characters only
            // is no query, as query itself may not be.
            if (messages.get(i).role().strip().equalsIgnoreCase("user")
                    && TextSafety.hasVisibleCharacter(messages.get(i).content())) {
                return messages.get(i).content().strip();
            }
        }
        throw new InvalidRequestException("messages", "must hold a user message with text");
    }

    @GetMapping("/{id}")
    @Operation(
            summary = "What a context request was shown",
            description = "Its numbered entries by memory id, their scores and whether a reply cited them. Kept "
                    + "memoir.context-traces.keep (7 days by default); erased with the user.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "404", description = "No such context for this tenant, or purged")
            })
    ContextTraceView trace(TenantId tenant, @PathVariable UUID id) {
        return contexts.trace(tenant, id);
    }

    /** Which entries a reply cited. */
    record Citations(
            @Schema(description = "The entry numbers the reply cited, as the text numbered them", example = "[1, 3]")
            @NotNull
            @Size(max = FieldConstraints.CITED_ENTRIES)
            List<@NotNull Integer> numbers) {}

    @PostMapping("/{id}/citations")
    @Operation(
            summary = "Record which entries a reply built on the context cited",
            description = "Replaces the citations recorded before. The trace then names the memories behind them.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The trace with its citations"),
                @ApiResponse(responseCode = "400", description = "A number the context did not show"),
                @ApiResponse(responseCode = "404", description = "No such context for this tenant, or purged")
            })
    ContextTraceView cite(TenantId tenant, @PathVariable UUID id, @Valid @RequestBody Citations citations) {
        return contexts.cite(tenant, id, citations.numbers());
    }
}
