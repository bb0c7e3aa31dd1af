package dev.memoir.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import dev.memoir.archive.UserArchives;
import dev.memoir.chat.MemoryChat;
import dev.memoir.memory.AddedMemory;
import dev.memoir.memory.MemoryChange;
import dev.memoir.memory.MemorySearch;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.Validity;
import dev.memoir.tenant.TenantId;
import dev.memoir.web.ApiException;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.memory.MemorySearches;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Memoir's MCP tools: a user's memory to add, search, list, read, edit and delete, and a chat reply with memory.
 * The tenant is always the API key's, carried from the HTTP request in the transport context, never an argument.
 * Each tool answers the JSON the matching REST endpoint answers; what the endpoint would refuse with a problem
 * detail comes back as a tool error whose text starts with the problem's code.
 */
@Component
class MemoryTools {

    /** The transport context key under which the request's tenant travels. */
    static final String TENANT = TenantId.class.getName();

    private static final Logger log = LoggerFactory.getLogger(MemoryTools.class);

    private static final String USER_ID = """
            "userId": {"type": "string", "minLength": 1, "maxLength": 200,
                       "description": "The end user whose memory this is, as your application identifies them"}""";
    private static final String KINDS = """
            "kind": {"type": "array", "items": {"type": "string", "enum": [%s]},
                     "description": "Only memories of these kinds; all kinds when omitted"}""";
    private static final String WINDOW = """
            "from": {"type": "string", "format": "date-time",
                     "description": "Only memories whose dialogue time ends at or after this instant (ISO-8601)"},
            "to": {"type": "string", "format": "date-time",
                   "description": "Only memories whose dialogue time starts before this instant (ISO-8601)"},
            "sessionId": {"type": "string", "format": "uuid", "description": "Only memories of this session"}""";
    private static final String VALIDITY = """
            "asOf": {"type": "string", "format": "date-time",
                     "description": "Answer as the memory stood at this instant: memories said by then and not yet superseded then"},
            "includeSuperseded": {"type": "boolean", "default": false,
                                  "description": "Also show superseded memories, each with validTo and supersededBy"}""";
    private static final String SUPERSEDES = """
            "supersedes": {"type": "array", "maxItems": 100, "items": {"type": "string", "format": "uuid"},
                           "description": "The user's live memories this one updates or contradicts: they stay, with validTo and supersededBy, but reads see live memories only"}""";
    private static final String EXPIRES_AT = """
            "expiresAt": {"type": "string", "format": "date-time",
                          "description": "When the memory expires (in the future): then it is invisible and deleted by the retention job"}""";
    private static final String NEVER_EXPIRES = """
            "neverExpires": {"type": "boolean", "default": false,
                             "description": "true clears the memory's expiry (many MCP clients cannot send a null expiresAt)"}""";
    private static final String MEMORY_ID = """
            "id": {"type": "string", "format": "uuid", "description": "The memory's id"}""";

    /** The largest archive the export tool answers with; a larger one is exported by the REST endpoint. */
    static final int MAX_ARCHIVE_BYTES = 8 << 20;

    private final MemoryStore store;
    private final MemoryChat chat;
    private final JsonMapper json;
    private final MemorySearches searches;
    private final UserArchives archives;

    MemoryTools(MemoryStore store, MemoryChat chat, JsonMapper json, UserArchives archives,
            MemorySearches searches) {
        this.searches = searches;
        this.archives = archives;
        this.store = store;
        this.chat = chat;
        this.json = json;
    }

    List<SyncToolSpecification> specifications() {
        String kinds = KINDS.formatted(String.join(", ", java.util.Arrays.stream(dev.memoir.memory.MemoryKind.values())
                .map(k -> "\"" + k.wireName() + "\"").toList()));
        return List.of(
                tool("add_memory", "Add a memory",
                        "Stores a fact about a user in Memoir's long-term memory. It is searchable at once and every "
                                + "later chat with that user recalls it. Adding the same text again for the same user "
                                + "returns the memory already stored (created: false).",
                        schema(List.of("userId", "text"), USER_ID, """
                                "text": {"type": "string", "minLength": 1, "maxLength": 20000,
                                         "description": "What to remember, as a self-contained statement"}""", """
                                "occurredAt": {"type": "string", "format": "date-time",
                                               "description": "When it was said or became true (ISO-8601); now when omitted"}""",
                                """
                                "kind": {"type": "string", "enum": ["fact"], "default": "fact",
                                         "description": "Only fact: the other kinds are written by Memoir itself"}""",
                                SUPERSEDES, EXPIRES_AT),
                        new ToolAnnotations("Add a memory", false, false, true, false, null),
                        (tenant, args) -> {
                            AddedMemory added = store.add(tenant, args.userId("userId", true), args.kind("kind"),
                                    args.text("text", 20000, true), args.instant("occurredAt"),
                                    args.uuids("supersedes", 100), args.instant("expiresAt"));
                            return ordered("created", added.created(), "memory", added.memory());
                        }),
                tool("search_memory", "Search a user's memories",
                        "Hybrid search of a user's memories: full-text ranking of the query's words fused with "
                                + "embedding similarity, best first, with each result's cosine similarity as score. "
                                + "Filters narrow it by kind, dialogue time window and session.",
                        schema(List.of("userId", "query"), USER_ID, """
                                "query": {"type": "string", "minLength": 1, "maxLength": 4000,
                                          "description": "What to look for: a question, keywords or a statement"}""",
                                kinds, WINDOW, VALIDITY, """
                                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10,
                                          "description": "How many results"}""", """
                                "mode": {"type": "string", "enum": ["hybrid", "dense", "lexical"], "default": "hybrid",
                                         "description": "hybrid fuses both rankings; dense or lexical uses one alone"}"""),
                        new ToolAnnotations("Search memories", true, false, true, false, null),
                        (tenant, args) -> {
                            MemorySearch search = MemorySearch.of(tenant, args.userId("userId", true),
                                    args.kinds("kind"), searches.query(args.text("query", 4000, true)),
                                    args.integer("limit", 1, 100, 10))
                                    .within(args.uuid("sessionId", false), args.instant("from"), args.instant("to"))
                                    .using(args.mode("mode"))
                                    .at(validity(args));
                            requireWindow(search);
                            return Map.of("items", searches.views(search, false));
                        }),
                tool("list_memories", "List a user's memories",
                        "A user's memories, newest first, a page at a time. When nextCursor is in the result, more "
                                + "follow: call again with it as cursor.",
                        schema(List.of("userId"), USER_ID, kinds, WINDOW, VALIDITY, """
                                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20,
                                          "description": "Memories per page"}""", """
                                "cursor": {"type": "string", "maxLength": 1000,
                                           "description": "The previous page's nextCursor; omit for the first page"}"""),
                        new ToolAnnotations("List memories", true, false, true, false, null),
                        (tenant, args) -> {
                            MemorySearch window = MemorySearch.of(tenant, args.userId("userId", true),
                                    args.kinds("kind"), null, args.integer("limit", 1, 100, 20))
                                    .within(args.uuid("sessionId", false), args.instant("from"), args.instant("to"));
                            requireWindow(window);
                            return searches.newest(tenant, window.userId(), window.kinds(), window.sessionId(),
                                    window.from(), window.to(), validity(args), args.string("cursor", false),
                                    window.limit());
                        }),
                tool("get_memory", "Get a memory", "One memory by id, with its kind, text, version, dates and "
                                + "provenance (the session and turns it was written from).",
                        schema(List.of("id"), MEMORY_ID),
                        new ToolAnnotations("Get a memory", true, false, true, false, null),
                        (tenant, args) -> store.get(tenant, args.uuid("id", true))),
                tool("update_memory", "Edit a memory",
                        "Changes what is given: a new text is re-embedded, its version grows by one and the old text "
                                + "is kept as a revision; supersedes replaces the memories it supersedes ([] for "
                                + "none); expiresAt sets the expiry, neverExpires clears it.",
                        schema(List.of("id"), MEMORY_ID, """
                                "text": {"type": "string", "minLength": 1, "maxLength": 20000,
                                         "description": "The memory's new text"}""", SUPERSEDES, EXPIRES_AT,
                                NEVER_EXPIRES),
                        new ToolAnnotations("Edit a memory", false, false, false, false, null),
                        (tenant, args) -> {
                            MemoryChange change = new MemoryChange(args.text("text", 20000, false),
                                    args.uuids("supersedes", 100), args.instant("expiresAt"),
                                    args.bool("neverExpires")
                                            || args.has("expiresAt") && args.instant("expiresAt") == null);
                            if (change.text() == null && change.supersedes() == null && change.expiresAt() == null
                                    && !change.neverExpires()) {
                                throw new InvalidRequestException("text",
                                        "nothing to change: give text, supersedes or expiresAt");
                            }
                            return store.update(tenant, args.uuid("id", true), change);
                        }),
                tool("delete_memory", "Delete a memory",
                        "Deletes one memory and its revisions for good.",
                        schema(List.of("id"), MEMORY_ID),
                        new ToolAnnotations("Delete a memory", false, true, true, false, null),
                        (tenant, args) -> {
                            UUID id = args.uuid("id", true);
                            store.delete(tenant, id);
                            return Map.of("deleted", id);
                        }),
                tool("export_user", "Export a user's memory",
                        "Everything Memoir holds for the user as a versioned NDJSON archive (sessions, turns, "
                                + "memories with their validity and vectors, revisions, learning episodes): the "
                                + "archive GET /users/{userId}/export streams, here up to 8 MB. import_user restores "
                                + "it in any Memoir deployment.",
                        schema(List.of("userId"), USER_ID),
                        new ToolAnnotations("Export a user's memory", true, false, true, false, null),
                        (tenant, args) -> Map.of("archive", archives.export(tenant, args.userId("userId", true),
                                MAX_ARCHIVE_BYTES))),
                tool("import_user", "Import a user's memory",
                        "Restores an archive from export_user (or GET /users/{userId}/export) as this user, who must "
                                + "have no sessions or memories yet: whole, with new ids, or not at all. Larger "
                                + "archives go to POST /users/{userId}/import, which streams.",
                        schema(List.of("userId", "archive"), USER_ID, """
                                "archive": {"type": "string", "minLength": 1,
                                            "description": "The archive's NDJSON text"}"""),
                        new ToolAnnotations("Import a user's memory", false, false, false, false, null),
                        (tenant, args) -> archives.restore(tenant, args.userId("userId", true),
                                args.string("archive", true))),
                tool("chat", "Chat with memory",
                        "Sends the user's message to Memoir's assistant, which answers with what it remembers about "
                                + "the user, stores both turns and learns from the exchange. Without sessionId the "
                                + "user's open conversation continues (started on first use).",
                        schema(List.of("message"), """
                                "message": {"type": "string", "minLength": 1, "maxLength": 32000,
                                            "description": "The user's message"}""", USER_ID.replace(
                                        "\"The end user", "\"Required without sessionId. The end user"), """
                                "sessionId": {"type": "string", "format": "uuid",
                                              "description": "An open session to chat in (its user must be userId when both are given)"}"""),
                        new ToolAnnotations("Chat with memory", false, false, false, true, null),
                        (tenant, args) -> chat.reply(tenant, args.userId("userId", false),
                                args.uuid("sessionId", false), args.text("message", 32000, true))));
    }

    private static Validity validity(ToolArguments args) {
        return Validity.of(args.instant("asOf"), args.bool("includeSuperseded"));
    }

    private static void requireWindow(MemorySearch search) {
        if (search.from() != null && search.to() != null && !search.from().isBefore(search.to())) {
            throw new InvalidRequestException("to", "must be after from");
        }
    }

    private interface Handler {
        Object handle(TenantId tenant, ToolArguments arguments);
    }

    private SyncToolSpecification tool(String name, String title, String description, Map<String, Object> schema,
            ToolAnnotations annotations, Handler handler) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder().name(name).title(title).description(description).inputSchema(schema)
                        .annotations(annotations).build())
                .callHandler(call(name, handler))
                .build();
    }

    private BiFunction<McpTransportContext, CallToolRequest, CallToolResult> call(String name, Handler handler) {
        return (context, request) -> {
            if (!(context.get(TENANT) instanceof TenantId tenant)) {
                // The API-key filter lets no request without a tenant reach /mcp; this only guards against a change.
                return error("unauthorized: no tenant API key on this request");
            }
            try {
                Object result = handler.handle(tenant, new ToolArguments(request.arguments()));
                return CallToolResult.builder().addTextContent(json.writeValueAsString(result)).isError(false)
                        .build();
            } catch (ApiException e) {
                return error(e.code() + ": " + e.getMessage());
            } catch (RuntimeException e) {
                log.error("MCP tool {} failed", name, e);
                return error("internal-error: An unexpected error occurred");
            }
        };
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** An object schema with these properties (JSON fragments) and required names; no other property allowed. */
    private Map<String, Object> schema(List<String> required, String... properties) {
        String text = "{\"type\": \"object\", \"properties\": {" + String.join(", ", properties) + "}, \"required\": "
                + json.writeValueAsString(required) + ", \"additionalProperties\": false}";
        return json.readValue(text, new TypeReference<Map<String, Object>>() { });
    }
}
