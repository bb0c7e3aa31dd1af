package dev.memoir.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.validation.Validator;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import jakarta.validation.metadata.ConstraintDescriptor;
import jakarta.validation.metadata.ElementDescriptor;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import dev.memoir.common.wire.WireNames;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.Json;
import dev.memoir.tenant.TenantId;

/**
 * The MCP tools take their arguments under the constraints of the REST requests they stand for: each schema states
 * the REST fields' limits, read here from the REST requests' own annotations, and a tool refuses what REST refuses
 * with REST's message.
 */
class McpToolConstraintsTest extends IntegrationTest {

    /** Where a REST request takes a field: a record's component, or a controller method's parameter. */
    private record RestField(String type, String method, String name) {}

    private static RestField component(String type, String name) {
        return new RestField(type, null, name);
    }

    private static RestField parameter(String type, String method, String name) {
        return new RestField(type, method, name);
    }

    private static final String MEMORY_CREATE = "dev.memoir.memory.MemoryCreate";
    private static final String MEMORY_UPDATE = "dev.memoir.memory.MemoryUpdate";
    private static final String MEMORY_CONTROLLER = "dev.memoir.memory.MemoryController";
    private static final String CHAT_REQUEST = "dev.memoir.chat.ChatRequest";
    private static final String ARCHIVE_CONTROLLER = "dev.memoir.archive.user.UserArchiveController";
    private static final String EXPORT_CONTROLLER = "dev.memoir.archive.dataexport.ExportImportController";
    private static final String CONTEXT_REQUEST = "dev.memoir.context.ContextRequest";
    private static final String USAGE_CONTROLLER = "dev.memoir.usage.UsageController";
    private static final String QUARANTINE_CONTROLLER = "dev.memoir.memory.QuarantineController";

    /** Each limited tool argument, and the REST field it stands for. */
    private static final Map<String, RestField> LIMITED_ARGUMENTS = Map.ofEntries(
            Map.entry("add_memory.userId", component(MEMORY_CREATE, "userId")),
            Map.entry("add_memory.text", component(MEMORY_CREATE, "text")),
            Map.entry("add_memory.supersedes", component(MEMORY_CREATE, "supersedes")),
            Map.entry("update_memory.text", component(MEMORY_UPDATE, "text")),
            Map.entry("update_memory.supersedes", component(MEMORY_UPDATE, "supersedes")),
            Map.entry("search_memory.userId", parameter(MEMORY_CONTROLLER, "list", "userId")),
            Map.entry("search_memory.query", parameter(MEMORY_CONTROLLER, "list", "query")),
            Map.entry("search_memory.limit", parameter(MEMORY_CONTROLLER, "list", "limit")),
            Map.entry("list_memories.userId", parameter(MEMORY_CONTROLLER, "list", "userId")),
            Map.entry("list_memories.limit", parameter(MEMORY_CONTROLLER, "list", "limit")),
            Map.entry("list_memories.cursor", parameter(MEMORY_CONTROLLER, "list", "cursor")),
            Map.entry("list_quarantined_memories.userId", parameter(QUARANTINE_CONTROLLER, "quarantined", "userId")),
            Map.entry("list_quarantined_memories.limit", parameter(QUARANTINE_CONTROLLER, "quarantined", "limit")),
            Map.entry("list_quarantined_memories.cursor", parameter(QUARANTINE_CONTROLLER, "quarantined", "cursor")),
            Map.entry("export_user.userId", parameter(ARCHIVE_CONTROLLER, "export", "userId")),
            Map.entry("import_user.userId", parameter(ARCHIVE_CONTROLLER, "export", "userId")),
            Map.entry("import_export.userId", parameter(EXPORT_CONTROLLER, "importChatGpt", "userId")),
            Map.entry("chat.message", component(CHAT_REQUEST, "message")),
            Map.entry("chat.userId", component(MEMORY_CREATE, "userId")),
            Map.entry("get_context.userId", component(CONTEXT_REQUEST, "userId")),
            Map.entry("get_context.query", component(CONTEXT_REQUEST, "query")),
            Map.entry("get_context.excludeRecentTurns", component(CONTEXT_REQUEST, "excludeRecentTurns")),
            Map.entry("get_context.tokenBudget", component(CONTEXT_REQUEST, "tokenBudget")),
            Map.entry("get_usage.userId", parameter(USAGE_CONTROLLER, "tenantUsage", "userId")));

    private static final List<String> UPPER_BOUNDS = List.of("maxLength", "maxItems", "maximum");

    @Autowired
    private Validator validator;

    @Autowired
    private ApplicationContext context;

    private McpSyncClient client;

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private McpSyncClient client(String key) {
        client = api.mcp(key);
        return client;
    }

    @Test
    void everyLimitInTheToolSchemasIsTheMatchingRestFieldsLimit() {
        List<Tool> tools = client(api.newTenant()).listTools().tools();
        Map<String, Map<String, Object>> limited = new HashMap<>();
        for (Tool tool : tools) {
            assertThat(tool.inputSchema()).as(tool.name()).containsEntry("additionalProperties", false);
            properties(tool).forEach((name, property) -> {
                if (UPPER_BOUNDS.stream().anyMatch(property::containsKey)) {
                    limited.put(tool.name() + "." + name, property);
                }
            });
        }

        assertThat(limited.keySet()).as("the limited arguments").isEqualTo(LIMITED_ARGUMENTS.keySet());
        LIMITED_ARGUMENTS.forEach((argument, field) -> {
            Map<String, Object> property = limited.get(argument);
            boolean many = "array".equals(property.get("type"));
            assertThat(bounds(property)).as(argument + " against " + field).isEqualTo(restBounds(field, many));
        });
    }

    @Test
    void enumArgumentsListTheirWireNames() {
        Map<String, Tool> tools = client(api.newTenant()).listTools().tools().stream()
                .collect(Collectors.toMap(Tool::name, tool -> tool));
        List<String> kinds =
                Arrays.stream(MemoryKind.values()).map(WireNames::of).toList();

        assertThat(properties(tools.get("add_memory")).get("kind").get("enum"))
                .isEqualTo(Arrays.stream(MemoryKind.values())
                        .filter(MemoryKind::addable)
                        .map(WireNames::of)
                        .toList());
        assertThat(((Map<?, ?>) properties(tools.get("search_memory"))
                                .get("kind")
                                .get("items"))
                        .get("enum"))
                .isEqualTo(kinds);
        assertThat(properties(tools.get("search_memory")).get("mode").get("enum"))
                .isEqualTo(List.of("hybrid", "dense", "lexical"));
    }

    @Test
    void whatTheSchemaCannotStateIsRefusedWithRestsMessage() {
        String key = api.newTenant();
        McpSyncClient mcp = client(key);
        String session = api.newSession(key, "dan", null);

        assertSameRefusal(
                call(mcp, "add_memory", Map.of("userId", " dan", "text", "x")),
                api.send("POST", "/memory", key, "{\"userId\": \" dan\", \"text\": \"x\"}"));
        assertSameRefusal(
                call(mcp, "add_memory", Map.of("userId", "dan", "text", "\u200b ")),
                api.send("POST", "/memory", key, "{\"userId\": \"dan\", \"text\": \"\u200b \"}"));
        assertSameRefusal(
                call(mcp, "chat", Map.of("sessionId", session, "message", "\u200b")), api.chat(key, session, "\u200b"));
    }

    @Test
    void aTooLongTextIsRefusedByTheToolWithRestsMessage() {
        String key = api.newTenant();
        int maximum =
                ((Number) properties(tool("add_memory").tool()).get("text").get("maxLength")).intValue();
        Map<String, Object> arguments = Map.of("userId", "dan", "text", "x".repeat(maximum + 1));

        // Over the wire the server's schema check refuses it first, naming the argument.
        assertThat(text(call(client(key), "add_memory", arguments))).contains("/text");
        // The tool itself, behind that check, refuses it as REST does.
        CallToolResult refused = tool("add_memory")
                .callHandler()
                .apply(
                        McpTransportContext.create(Map.of(ToolContext.TENANT, new TenantId(UUID.randomUUID()))),
                        new CallToolRequest("add_memory", arguments));
        assertSameRefusal(refused, api.send("POST", "/memory", key, Json.write(arguments)));
    }

    private static void assertSameRefusal(CallToolResult tool, Api.Response rest) {
        assertThat(rest.status()).as(rest.raw()).isEqualTo(400);
        assertThat(tool.isError()).as(text(tool)).isTrue();
        assertThat(text(tool)).isEqualTo(rest.text("code") + ": " + rest.text("detail"));
    }

    private static CallToolResult call(McpSyncClient mcp, String tool, Map<String, Object> arguments) {
        return mcp.callTool(new CallToolRequest(tool, arguments));
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().getFirst()).text();
    }

    @SuppressWarnings("unchecked")
    private SyncToolSpecification tool(String name) {
        return ((List<SyncToolSpecification>) context.getBean("memoirTools", List.class))
                .stream()
                        .filter(tool -> tool.tool().name().equals(name))
                        .findFirst()
                        .orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> properties(Tool tool) {
        return (Map<String, Map<String, Object>>) tool.inputSchema().get("properties");
    }

    /** The schema's limits of a property (its least lengths come from the tool's own @NotBlank, not REST's). */
    private static Map<String, Long> bounds(Map<String, Object> property) {
        Map<String, Long> bounds = new HashMap<>();
        for (String keyword : List.of("maxLength", "maxItems", "minimum", "maximum")) {
            if (property.get(keyword) instanceof Number bound) {
                bounds.put(keyword, bound.longValue());
            }
        }
        return bounds;
    }

    /** The limits the REST field's constraints set, as a JSON schema states them. */
    private Map<String, Long> restBounds(RestField field, boolean many) {
        Map<String, Long> bounds = new HashMap<>();
        for (Annotation constraint : restConstraints(field)) {
            if (constraint instanceof Size size) {
                bounds.put(many ? "maxItems" : "maxLength", (long) size.max());
            } else if (constraint instanceof Min min) {
                bounds.put("minimum", min.value());
            } else if (constraint instanceof Max max) {
                bounds.put("maximum", max.value());
            }
        }
        return bounds;
    }

    /** The REST field's constraints, with those its constraints are composed of. */
    private List<Annotation> restConstraints(RestField field) {
        Class<?> type;
        try {
            type = Class.forName(field.type());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        ElementDescriptor element;
        if (field.method() == null) {
            element = validator.getConstraintsForClass(type).getConstraintsForProperty(field.name());
        } else {
            Method method = Arrays.stream(type.getDeclaredMethods())
                    .filter(m -> m.getName().equals(field.method()))
                    .findFirst()
                    .orElseThrow();
            int index = Arrays.stream(method.getParameters())
                    .map(Parameter::getName)
                    .toList()
                    .indexOf(field.name());
            element = validator
                    .getConstraintsForClass(type)
                    .getConstraintsForMethod(method.getName(), method.getParameterTypes())
                    .getParameterDescriptors()
                    .get(index);
        }
        assertThat(element).as(field + " has constraints").isNotNull();
        return element.getConstraintDescriptors().stream()
                .flatMap(McpToolConstraintsTest::withComposing)
                .<Annotation>map(ConstraintDescriptor::getAnnotation)
                .toList();
    }

    private static Stream<ConstraintDescriptor<?>> withComposing(ConstraintDescriptor<?> constraint) {
        return Stream.concat(
                Stream.of(constraint),
                constraint.getComposingConstraints().stream().flatMap(McpToolConstraintsTest::withComposing));
    }
}
