package dev.memoir.session.web;

import java.net.URI;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.session.closing.SessionCloser;
import dev.memoir.session.imports.TurnImport;
import dev.memoir.session.imports.TurnsImport;
import dev.memoir.session.imports.TurnsImported;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/sessions")
@Tag(name = "Sessions", description = "Dialogue sessions and their turns")
class SessionController {

    private final SessionViews sessionViews;
    private final TurnImport turnImport;
    private final SessionCloser sessionCloser;

    SessionController(SessionViews sessionViews, TurnImport turnImport, SessionCloser sessionCloser) {
        this.sessionViews = sessionViews;
        this.turnImport = turnImport;
        this.sessionCloser = sessionCloser;
    }

    @PostMapping
    @Operation(
            summary = "Start a session for a user",
            description = "The session's memory strategy is the service default with `memory` laid over it.",
            responses = {
                @ApiResponse(responseCode = "201", description = "Created"),
                @ApiResponse(responseCode = "400", description = "Invalid userId or memory settings")
            })
    ResponseEntity<SessionView> create(TenantId tenant, @Valid @RequestBody SessionCreate request) {
        SessionView session = sessionViews.create(tenant, request.userId(), request.memory());
        // Relative, so that a forged Host header cannot point clients elsewhere.
        return ResponseEntity.created(URI.create("/sessions/" + session.id())).body(session);
    }

    @GetMapping("/{id}")
    @Operation(
            summary = "Get a session with its turns and its memory jobs",
            description = "`jobs` lists the background jobs writing the session's memory (its summary, memos, topic "
                    + "memories, the fold into the recursive summary, conditional notes) with their state: pending, "
                    + "deferred (held back while a model budget is used up), running, failed (with the last error; "
                    + "an operator can run it again) or done.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant")
            })
    SessionView get(TenantId tenant, @PathVariable UUID id) {
        return sessionViews.get(tenant, id);
    }

    @GetMapping
    @Operation(
            summary = "List a user's sessions, newest first, a page at a time",
            description = "nextCursor is present when more sessions follow: pass it back as cursor for the next "
                    + "page. Pages continue after the last session shown, so sessions started meanwhile never "
                    + "shift them.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Missing or invalid userId, limit or cursor")
            })
    SessionList list(
            TenantId tenant,
            @Parameter(required = true) @RequestParam @UserIdentifier String userId,
            @Parameter(description = "Sessions per page, 1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit,
            @Parameter(
                            description = "Where the page starts: the previous page's nextCursor; omit for the first "
                                    + "page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor) {
        return sessionViews.list(tenant, userId, cursor, limit);
    }

    @PostMapping("/{id}/turns")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            summary = "Import existing dialogue into an open session",
            description = "Stores the turns in order without calling the chat model. Memory is written for them as "
                    + "for chatted turns: history at once, memos every memoir.memo.turns-per-memo turns.",
            responses = {
                @ApiResponse(
                        responseCode = "201",
                        description = "The stored turns, and the messages skipped "
                                + "(system, developer, tool and function messages, and messages without visible text)"),
                @ApiResponse(responseCode = "400", description = "Invalid turns"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant"),
                @ApiResponse(responseCode = "409", description = "The session is closed")
            })
    TurnsImported importTurns(TenantId tenant, @PathVariable UUID id, @Valid @RequestBody TurnsImport request) {
        return turnImport.importTurns(tenant, id, request);
    }

    @PostMapping("/{id}/close")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(
            summary = "Close a session",
            description = "Closing queues, as the session's strategy asks, its summary, its remaining memos, the "
                    + "fold into the user's recursive summary and its topic memories, all written in the background. "
                    + "Closing a closed session again changes nothing.",
            responses = {
                @ApiResponse(responseCode = "202", description = "Closed; memory writing is queued"),
                @ApiResponse(responseCode = "404", description = "No such session for this tenant")
            })
    void close(TenantId tenant, @PathVariable UUID id) {
        sessionCloser.close(tenant, id);
    }
}
