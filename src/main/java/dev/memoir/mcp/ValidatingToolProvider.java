package dev.memoir.mcp;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.validation.Validator;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.provider.tool.SyncStatelessMcpToolProvider;
import org.springframework.util.ReflectionUtils;

import dev.memoir.common.web.ApiException;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tools of objects whose methods carry {@link McpTool}, checked as the REST API checks its requests. Spring AI's
 * provider describes each tool (name, title, annotations, and an input schema generated from the method's
 * parameters and their {@code @McpToolParam}); its own call handler can neither validate the parameters' Bean
 * Validation constraints nor name an argument it cannot convert, and answers an exception with its own text, so
 * this one replaces it:
 * <ul>
 * <li>the schema states the parameters' constraints (lengths, numbers of items, ranges) as the generator does not,
 * enum values by their wire names, and that no other argument is accepted ({@link ToolInputSchema});</li>
 * <li>a call's arguments are converted with the application's JsonMapper and validated by the application's
 * Validator against the same constraint annotations as the REST requests, so that a refusal names the argument
 * with REST's message ({@link ToolArguments});</li>
 * <li>the answer is the JSON the matching REST endpoint answers, and an {@link ApiException} a tool error whose text
 * starts with the problem's code, never a stack trace.</li>
 * </ul>
 * The server checks each call against the schema first: what the schema states (a type, a length, a range, an
 * enum) is refused by that check, with its own message naming the argument.
 */
class ValidatingToolProvider extends SyncStatelessMcpToolProvider {

    private static final Logger log = LoggerFactory.getLogger(ValidatingToolProvider.class);

    private final JsonMapper json;
    private final ToolInputSchema schemas;
    private final ToolArguments arguments;

    ValidatingToolProvider(List<Object> toolObjects, Validator validator, JsonMapper json) {
        super(toolObjects);
        this.json = json;
        this.schemas = new ToolInputSchema(validator, json);
        this.arguments = new ToolArguments(validator, json);
    }

    /** A tool's method and the object it is called on. */
    private record ToolMethod(Object object, Method method) {}

    @Override
    public List<SyncToolSpecification> getToolSpecifications() {
        Map<String, ToolMethod> methods = new HashMap<>();
        for (Object object : toolObjects) {
            for (Method method : doGetClassMethods(object)) {
                McpTool tool = doGetMcpToolAnnotation(method);
                if (tool != null) {
                    ReflectionUtils.makeAccessible(method);
                    methods.put(tool.name().isEmpty() ? method.getName() : tool.name(), new ToolMethod(object, method));
                }
            }
        }
        return super.getToolSpecifications().stream()
                .map(specification -> {
                    Tool described = specification.tool();
                    ToolMethod target = methods.get(described.name());
                    ObjectNode schema = schemas.of(described, target.method());
                    Set<String> required = new HashSet<>();
                    schema.path("required").forEach(name -> required.add(name.asString()));
                    Tool tool = new Tool(
                            described.name(),
                            described.title(),
                            described.description(),
                            json.convertValue(schema, new TypeReference<Map<String, Object>>() {}),
                            described.outputSchema(),
                            described.annotations(),
                            described.meta(),
                            described.icons());
                    return SyncToolSpecification.builder()
                            .tool(tool)
                            .callHandler((context, request) -> call(target, required, context, request))
                            .build();
                })
                .toList();
    }

    private CallToolResult call(
            ToolMethod tool, Set<String> required, McpTransportContext context, CallToolRequest request) {
        try {
            Object[] given = arguments.convert(tool.method(), context, request.arguments());
            arguments.validate(tool.object(), tool.method(), required, given);
            Object answer = ReflectionUtils.invokeMethod(tool.method(), tool.object(), given);
            return CallToolResult.builder()
                    .addTextContent(json.writeValueAsString(answer))
                    .isError(false)
                    .build();
        } catch (ApiException e) {
            return error(e.code() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            log.error("MCP tool {} failed", request.name(), e);
            return error("internal-error: An unexpected error occurred");
        }
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }
}
