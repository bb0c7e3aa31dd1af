package dev.memoir.mcp;

import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.modelcontextprotocol.common.McpTransportContext;
import io.swagger.v3.oas.annotations.media.Schema;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.stereotype.Component;

import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.common.wire.UserIdentifier;
import dev.memoir.common.wire.VisibleText;
import dev.memoir.memory.AddedMemory;
import dev.memoir.memory.MemoryChange;
import dev.memoir.memory.MemoryList;
import dev.memoir.memory.MemorySearches;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.api.DialogueWindow;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryOrigin;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.SearchMode;
import dev.memoir.memory.api.Trust;
import dev.memoir.memory.api.Validity;
import dev.memoir.tenant.TenantId;

/**
 * Memoir's MCP tools for a user's memory: add, search, list, read, edit and delete ({@link ArchiveTools} moves it in
 * and out, {@link ChatTools} chats with it). The tenant is always the API key's, carried from the HTTP request in the transport context,
 * never an argument. Each tool answers what the matching REST endpoint answers, and its arguments carry the
 * constraints of that endpoint's request ({@link ValidatingToolProvider} checks them and states them in the schema).
 */
@Component
class MemoryTools {

    /** Search results, or memories per page, when the call names no limit: as GET /memory. */
    private static final int PAGE = FieldConstraints.MEMORY_PAGE_DEFAULT;

    private static final String KINDS = "Only memories of these kinds; all kinds when omitted";
    private static final String FROM = "Only memories whose dialogue time ends at or after this instant (ISO-8601)";
    private static final String TO = "Only memories whose dialogue time starts before this instant (ISO-8601)";
    private static final String SESSION = "Only memories of this session";
    private static final String MIN_TRUST =
            "Only memories trusted at least so much: low, medium or high; any when omitted";
    private static final String AS_OF =
            "Answer as the memory stood at this instant: memories said by then and not " + "yet superseded then";
    private static final String INCLUDE_SUPERSEDED =
            "Also show superseded memories, each with validTo and " + "supersededBy";
    private static final String SUPERSEDES = "The user's live memories this one updates or contradicts: they stay, "
            + "with validTo and supersededBy, but reads see live memories only";
    private static final String EXPIRES_AT =
            "When the memory expires (in the future): then it is invisible and " + "deleted by the retention job";
    private static final String MEMORY_ID = "The memory's id";

    private final MemoryStore store;
    private final MemorySearches searches;

    MemoryTools(MemoryStore store, MemorySearches searches) {
        this.searches = searches;
        this.store = store;
    }

    @McpTool(
            name = "add_memory",
            title = "Add a memory",
            description = """
            Stores a fact about a user in Memoir's long-term memory. It is searchable at once and every later chat \
            with that user recalls it. Adding the same text again for the same user returns the memory already \
            stored (created: false).""",
            annotations =
                    @McpAnnotations(
                            title = "Add a memory",
                            readOnlyHint = false,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    Map<String, Object> addMemory(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId,
            @McpToolParam(description = "What to remember, as a self-contained statement")
                    @NotBlank
                    @VisibleText
                    @Size(max = FieldConstraints.MEMORY_TEXT)
                    String text,
            @McpToolParam(
                            description = "When it was said or became true (ISO-8601); now when omitted",
                            required = false)
                    Instant occurredAt,
            @McpToolParam(
                            description = "fact (the default) or instruction (a standing instruction or preference "
                                    + "that every reply shows first): the other kinds are written by Memoir itself",
                            required = false)
                    @Schema(allowableValues = {"fact", "instruction"})
                    MemoryKind kind,
            @McpToolParam(description = SUPERSEDES, required = false) @Size(max = FieldConstraints.SUPERSEDED_MEMORIES)
                    List<UUID> supersedes,
            @McpToolParam(description = EXPIRES_AT, required = false) Instant expiresAt) {
        AddedMemory added = store.add(
                ToolContext.tenant(context),
                userId,
                kind,
                text.strip(),
                occurredAt,
                supersedes,
                expiresAt,
                MemoryOrigin.mcp());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("created", added.created());
        answer.put("memory", added.memory());
        return answer;
    }

    @McpTool(
            name = "search_memory",
            title = "Search a user's memories",
            description = """
            Hybrid search of a user's memories: full-text ranking of the query's words fused with embedding \
            similarity, best first, with each result's cosine similarity as score. Filters narrow it by kind, \
            dialogue time window and session.""",
            annotations =
                    @McpAnnotations(
                            title = "Search memories",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    Map<String, Object> searchMemory(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId,
            @McpToolParam(description = "What to look for: a question, keywords or a statement")
                    @NotBlank
                    @VisibleText
                    @Size(max = FieldConstraints.SEARCH_QUERY)
                    String query,
            @McpToolParam(description = KINDS, required = false) Set<MemoryKind> kind,
            @McpToolParam(description = FROM, required = false) Instant from,
            @McpToolParam(description = TO, required = false) Instant to,
            @McpToolParam(description = SESSION, required = false) UUID sessionId,
            @McpToolParam(description = AS_OF, required = false) Instant asOf,
            @McpToolParam(description = INCLUDE_SUPERSEDED, required = false) Boolean includeSuperseded,
            @McpToolParam(description = "How many results; " + PAGE + " when omitted", required = false)
                    @Min(1)
                    @Max(FieldConstraints.MEMORY_PAGE)
                    Integer limit,
            @McpToolParam(
                            description = "hybrid (the default) fuses both rankings; dense or lexical uses one alone",
                            required = false)
                    SearchMode mode,
            @McpToolParam(description = MIN_TRUST, required = false) Trust minTrust) {
        TenantId tenant = ToolContext.tenant(context);
        MemorySearch search = MemorySearch.of(
                        tenant, userId, kinds(kind), searches.query(query.strip()), limit == null ? PAGE : limit)
                .using(mode)
                .at(Validity.of(asOf, Boolean.TRUE.equals(includeSuperseded)))
                .within(sessionId, new DialogueWindow(from, to))
                .trustedAtLeast(minTrust);
        return Map.of("items", searches.views(search, false));
    }

    @McpTool(
            name = "list_memories",
            title = "List a user's memories",
            description = """
            A user's memories, newest first, a page at a time. When nextCursor is in the result, more follow: call \
            again with it as cursor.""",
            annotations =
                    @McpAnnotations(
                            title = "List memories",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    MemoryList listMemories(
            McpTransportContext context,
            @McpToolParam(description = ToolContext.USER_ID) @UserIdentifier String userId,
            @McpToolParam(description = KINDS, required = false) Set<MemoryKind> kind,
            @McpToolParam(description = FROM, required = false) Instant from,
            @McpToolParam(description = TO, required = false) Instant to,
            @McpToolParam(description = SESSION, required = false) UUID sessionId,
            @McpToolParam(description = AS_OF, required = false) Instant asOf,
            @McpToolParam(description = INCLUDE_SUPERSEDED, required = false) Boolean includeSuperseded,
            @McpToolParam(description = "Memories per page; " + PAGE + " when omitted", required = false)
                    @Min(1)
                    @Max(FieldConstraints.MEMORY_PAGE)
                    Integer limit,
            @McpToolParam(description = "The previous page's nextCursor; omit for the first page", required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor,
            @McpToolParam(description = MIN_TRUST, required = false) Trust minTrust) {
        DialogueWindow window = new DialogueWindow(from, to);
        return searches.newest(
                ToolContext.tenant(context),
                userId,
                kinds(kind),
                sessionId,
                window,
                Validity.of(asOf, Boolean.TRUE.equals(includeSuperseded)),
                minTrust,
                cursor,
                limit == null ? PAGE : limit);
    }

    @McpTool(
            name = "get_memory",
            title = "Get a memory",
            description = """
            One memory by id, with its kind, text, version, dates and provenance (the session and turns it was \
            written from).""",
            annotations =
                    @McpAnnotations(
                            title = "Get a memory",
                            readOnlyHint = true,
                            destructiveHint = false,
                            idempotentHint = true,
                            openWorldHint = false))
    MemoryView getMemory(McpTransportContext context, @McpToolParam(description = MEMORY_ID) UUID id) {
        return store.get(ToolContext.tenant(context), id);
    }

    @McpTool(
            name = "update_memory",
            title = "Edit a memory",
            description = """
            Changes what is given: a new text is re-embedded, its version grows by one and the old text is kept as \
            a revision; supersedes replaces the memories it supersedes ([] for none); expiresAt sets the expiry, \
            neverExpires clears it.""",
            annotations =
                    @McpAnnotations(
                            title = "Edit a memory",
                            readOnlyHint = false,
                            destructiveHint = false,
                            idempotentHint = false,
                            openWorldHint = false))
    MemoryView updateMemory(
            McpTransportContext context,
            @McpToolParam(description = MEMORY_ID) UUID id,
            @McpToolParam(description = "The memory's new text", required = false)
                    @NotBlank
                    @VisibleText
                    @Size(max = FieldConstraints.MEMORY_TEXT)
                    String text,
            @McpToolParam(description = SUPERSEDES, required = false) @Size(max = FieldConstraints.SUPERSEDED_MEMORIES)
                    List<UUID> supersedes,
            @McpToolParam(description = EXPIRES_AT, required = false) Instant expiresAt,
            @McpToolParam(
                            description = "true clears the memory's expiry (many MCP clients cannot send a null "
                                    + "expiresAt)",
                            required = false)
                    Boolean neverExpires) {
        MemoryChange change = new MemoryChange(
                text == null ? null : text.strip(), supersedes, expiresAt, Boolean.TRUE.equals(neverExpires));
        return store.update(ToolContext.tenant(context), id, change, MemoryOrigin.mcp());
    }

    @McpTool(
            name = "delete_memory",
            title = "Delete a memory",
            description = "Deletes one memory and its revisions for good.",
            annotations =
                    @McpAnnotations(
                            title = "Delete a memory",
                            readOnlyHint = false,
                            destructiveHint = true,
                            idempotentHint = true,
                            openWorldHint = false))
    Map<String, Object> deleteMemory(McpTransportContext context, @McpToolParam(description = MEMORY_ID) UUID id) {
        store.delete(ToolContext.tenant(context), id);
        return Map.of("deleted", id);
    }

    private static Set<MemoryKind> kinds(Set<MemoryKind> kinds) {
        return kinds == null || kinds.isEmpty() ? EnumSet.allOf(MemoryKind.class) : kinds;
    }
}
