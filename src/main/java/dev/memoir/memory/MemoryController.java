package dev.memoir.memory;

import java.net.URI;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.memory.api.DialogueWindow;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.SearchMode;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.api.Validity;
import dev.memoir.memory.revision.MemoryRevisionList;
import dev.memoir.memory.revision.MemoryRevisions;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/memory")
@Tag(name = "Memory", description = "Add, read, search, edit and delete what Memoir remembers about a user")
class MemoryController {

    private final MemoryStore store;
    private final MemorySearches searches;
    private final MemoryRevisions revisions;

    MemoryController(MemoryStore store, MemorySearches searches, MemoryRevisions revisions) {
        this.searches = searches;
        this.store = store;
        this.revisions = revisions;
    }

    @PostMapping
    @Operation(
            summary = "Add a memory directly",
            description = """
                    Adds a fact about the user, embedded at once: search finds it, and every session's replies \
                    recall it, as soon as this returns. It can be edited, deleted and erased like any memory. \
                    Only kind `fact` can be added; the other kinds are written by Memoir from dialogue and \
                    feedback. The same text added again for the same user is not stored twice: the answer is \
                    then 200 with the memory that has it. `supersedes` names the user's memories that the new \
                    fact updates or contradicts: they stay, with `validTo` and `supersededBy`, but reads see live \
                    memories only. Without `supersedes`, Memoir judges in the background, with one model call when \
                    a live memory of the user is close to the new fact, whether the fact supersedes some of them \
                    (`memoir.supersession.*`). `expiresAt` makes it invisible from then on and deleted by the \
                    retention job.""",
            responses = {
                @ApiResponse(responseCode = "201", description = "Added; Location is /memory/{id}"),
                @ApiResponse(responseCode = "200", description = "The user already had this text as a fact"),
                @ApiResponse(
                        responseCode = "400",
                        description = "Invalid userId or text, occurredAt in the future, expiresAt not in "
                                + "the future, a kind that cannot be added, or supersedes naming a memory "
                                + "that is not the user's live fact-bearing memory")
            })
    ResponseEntity<MemoryView> add(TenantId tenant, @Valid @RequestBody MemoryCreate request) {
        AddedMemory added = store.add(
                tenant,
                request.userId(),
                request.kind(),
                request.text().strip(),
                request.occurredAt(),
                request.supersedes(),
                request.expiresAt(),
                MemoryOrigin.client());
        // Relative, so that a forged Host header cannot point clients elsewhere.
        URI location = URI.create("/memory/" + added.memory().id());
        return added.created()
                ? ResponseEntity.created(location).body(added.memory())
                : ResponseEntity.ok().location(location).body(added.memory());
    }

    @GetMapping
    @Operation(
            summary = "List or search a user's memories",
            description = """
                    Without `query`, newest first, a page at a time: `nextCursor` is present when more follow; \
                    pass it back as `cursor` for the next page. Pages continue after the last memory shown, so \
                    memories added meanwhile never shift them: each memory is listed once. With `query`, memories \
                    are ranked by hybrid search: PostgreSQL's full-text ranking of the query's words and the \
                    cosine similarity of embeddings, fused by reciprocal rank (`mode` picks one ranking alone; \
                    `explain=true` shows each result's ranks and scores). A ranked search is not paged: it \
                    answers the best `limit` results with no `nextCursor`. `from`/`to` keep memories whose \
                    dialogue time overlaps the window; `sessionId` keeps memories written from that session. \
                    Only live memories are read: not superseded and not expired. `asOf` answers as the memory stood \
                    at that instant (memories said by then and not superseded then); `includeSuperseded=true` \
                    shows superseded memories too, each with its `validTo` and `supersededBy`.""",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(
                        responseCode = "400",
                        description = "Missing userId, invalid kind, mode, limit, cursor or time window, or a "
                                + "cursor with a query, asOf in the future or with includeSuperseded")
            })
    MemoryList list(
            TenantId tenant,
            @Parameter(description = "The user whose memories to read", required = true) @RequestParam @UserIdentifier
                    String userId,
            @Parameter(description = "Words to search the memories for")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.SEARCH_QUERY)
                    String query,
            @Parameter(description = "Only these kinds (repeatable); all kinds when omitted")
                    @RequestParam(required = false)
                    Set<MemoryKind> kind,
            @Parameter(description = "Memories per page (or search results), 1 to " + FieldConstraints.MEMORY_PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.MEMORY_PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.MEMORY_PAGE)
                    int limit,
            @Parameter(
                            description = "Where the page starts: the previous page's nextCursor; omit for the first "
                                    + "page. Not with a query.")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor,
            @Parameter(
                            description = "Rankings to use with a query: hybrid (default), dense or lexical",
                            schema = @Schema(allowableValues = {"hybrid", "dense", "lexical"}))
                    @RequestParam(required = false)
                    SearchMode mode,
            @Parameter(description = "With a query, show each result's lexical and dense rank and score")
                    @RequestParam(defaultValue = "false")
                    boolean explain,
            @Parameter(description = "Only memories of this session") @RequestParam(required = false) UUID sessionId,
            @Parameter(
                            description = "Only memories whose dialogue time ends at or after this instant (ISO-8601)",
                            example = "2023-05-01T00:00:00Z")
                    @RequestParam(required = false)
                    Instant from,
            @Parameter(
                            description = "Only memories whose dialogue time starts before this instant (ISO-8601)",
                            example = "2023-06-01T00:00:00Z")
                    @RequestParam(required = false)
                    Instant to,
            @Parameter(
                            description =
                                    "Answer as the memory stood at this instant (ISO-8601): memories said by then "
                                            + "and not yet superseded then",
                            example = "2024-01-01T00:00:00Z")
                    @RequestParam(required = false)
                    Instant asOf,
            @Parameter(description = "Also show superseded memories, each with validTo and supersededBy")
                    @RequestParam(defaultValue = "false")
                    boolean includeSuperseded,
            @Parameter(
                            description = "Only memories trusted at least so much: low, medium or high "
                                    + "(docs/trust.md); any when omitted",
                            schema = @Schema(allowableValues = {"low", "medium", "high"}))
                    @RequestParam(required = false)
                    Trust minTrust) {
        DialogueWindow window = new DialogueWindow(from, to);
        Validity validity = Validity.of(asOf, includeSuperseded);
        Set<MemoryKind> kinds = kind == null || kind.isEmpty() ? EnumSet.allOf(MemoryKind.class) : kind;
        if (query == null || query.isBlank()) {
            return searches.newest(tenant, userId, kinds, sessionId, window, validity, minTrust, cursor, limit);
        }
        if (cursor != null) {
            throw new InvalidRequestException(
                    "cursor",
                    "pages the list without a query; a ranked search is not " + "paged (raise limit instead)");
        }
        MemorySearch search = MemorySearch.of(tenant, userId, kinds, searches.query(query), limit)
                .within(sessionId, window)
                .using(mode)
                .at(validity)
                .trustedAtLeast(minTrust);
        return MemoryList.ranked(searches.views(search, explain));
    }

    @GetMapping("/{id}")
    @Operation(
            summary = "Get one memory",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "404", description = "No such memory for this tenant")
            })
    MemoryView get(TenantId tenant, @PathVariable UUID id) {
        return store.get(tenant, id);
    }

    @GetMapping("/{id}/revisions")
    @Operation(
            summary = "List every version of a memory, newest first, a page at a time",
            description = "Edits, recursive-summary folds, topic merges and corrections learned from feedback "
                    + "(reflection) make new versions; each keeps its text, the session that caused it and why. "
                    + "nextCursor is present when older versions follow.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid limit or cursor"),
                @ApiResponse(responseCode = "404", description = "No such memory for this tenant")
            })
    MemoryRevisionList revisions(
            TenantId tenant,
            @PathVariable UUID id,
            @Parameter(description = "Versions per page, 1 to " + FieldConstraints.REVISION_PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.REVISION_PAGE)
                    int limit,
            @Parameter(
                            description = "Where the page starts: the previous page's nextCursor; omit for the first "
                                    + "page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor) {
        return revisions.page(tenant, id, cursor, limit);
    }

    @PatchMapping("/{id}")
    @Operation(
            summary = "Change a memory: its text, what it supersedes, when it expires",
            description = """
                    Only the fields given change. A new `text` is a new version: the memory is re-embedded and its \
                    old text kept as a revision. `supersedes` replaces the set of the user's memories that this one \
                    supersedes (`[]`: none; those it superseded are live again). `expiresAt` sets the expiry, \
                    `null` clears it.""",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(
                        responseCode = "400",
                        description = "Blank or too long text, nothing to change, "
                                + "expiresAt not in the future, or supersedes naming a memory that cannot be superseded "
                                + "by this one"),
                @ApiResponse(responseCode = "404", description = "No such memory for this tenant")
            })
    MemoryView update(TenantId tenant, @PathVariable UUID id, @Valid @RequestBody MemoryUpdate update) {
        return store.update(tenant, id, update.change(), MemoryOrigin.client());
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(
            summary = "Delete a memory",
            responses = {
                @ApiResponse(responseCode = "204"),
                @ApiResponse(responseCode = "404", description = "No such memory for this tenant")
            })
    void delete(TenantId tenant, @PathVariable UUID id) {
        store.delete(tenant, id);
    }
}
