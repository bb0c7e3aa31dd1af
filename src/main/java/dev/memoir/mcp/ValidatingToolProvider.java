package dev.memoir.mcp;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import jakarta.validation.metadata.ConstraintDescriptor;
import jakarta.validation.metadata.MethodDescriptor;
import jakarta.validation.metadata.ParameterDescriptor;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.swagger.v3.oas.annotations.media.Schema;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.provider.tool.SyncStatelessMcpToolProvider;
import org.springframework.core.ResolvableType;
import org.springframework.util.ReflectionUtils;

import dev.memoir.web.ApiException;
import dev.memoir.web.FieldError;
import dev.memoir.web.InvalidRequestException;
import dev.memoir.web.TextSafety;
import dev.memoir.web.WireNames;

import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tools of objects whose methods carry {@link McpTool}, checked as the REST API checks its requests. Spring AI's
 * provider describes each tool (name, title, annotations, and an input schema generated from the method's
 * parameters and their {@code @McpToolParam}); its own call handler can neither validate the parameters' Bean
 * Validation constraints nor name an argument it cannot convert, and answers an exception with its own text, so
 * this one replaces it:
 * <ul>
 * <li>the schema states the parameters' constraints (lengths, numbers of items, ranges) as the generator does not,
 * enum values by their wire names, and that no other argument is accepted;</li>
 * <li>a call's arguments are converted with the application's JsonMapper and validated by the application's
 * Validator against the same constraint annotations as the REST requests, so that a refusal names the argument
 * with REST's message;</li>
 * <li>the answer is the JSON the matching REST endpoint answers, and an {@link ApiException} a tool error whose text
 * starts with the problem's code, never a stack trace.</li>
 * </ul>
 * The server checks each call against the schema first: what the schema states (a type, a length, a range, an
 * enum) is refused by that check, with its own message naming the argument.
 */
class ValidatingToolProvider extends SyncStatelessMcpToolProvider {

    private static final Logger log = LoggerFactory.getLogger(ValidatingToolProvider.class);

    private final Validator validator;
    private final JsonMapper json;

    ValidatingToolProvider(List<Object> toolObjects, Validator validator, JsonMapper json) {
        super(toolObjects);
        this.validator = validator;
        this.json = json;
    }

    /** A tool's method and the object it is called on. */
    private record ToolMethod(Object object, Method method) {
    }

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
        return super.getToolSpecifications().stream().map(specification -> {
            Tool described = specification.tool();
            ToolMethod target = methods.get(described.name());
            ObjectNode schema = inputSchema(described, target.method());
            Set<String> required = new HashSet<>();
            schema.path("required").forEach(name -> required.add(name.asString()));
            Tool tool = new Tool(described.name(), described.title(), described.description(),
                    json.convertValue(schema, new TypeReference<Map<String, Object>>() { }), described.outputSchema(),
                    described.annotations(), described.meta(), described.icons());
            return SyncToolSpecification.builder().tool(tool)
                    .callHandler((context, request) -> call(target, required, context, request)).build();
        }).toList();
    }

    private ObjectNode inputSchema(Tool tool, Method method) {
        ObjectNode schema = json.valueToTree(tool.inputSchema());
        JsonNode properties = schema.path("properties");
        Parameter[] parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (properties.get(parameters[i].getName()) instanceof ObjectNode property) {
                Class<?> element = elementType(parameters[i]);
                for (Annotation constraint : constraints(method, i)) {
                    state(property, constraint, element != null);
                }
                Class<?> valueType = element != null ? element : parameters[i].getType();
                if (valueType.isEnum()) {
                    ObjectNode value = element != null ? (ObjectNode) property.get("items") : property;
                    ArrayNode names = value.putArray("enum");
                    accepted(parameters[i], valueType).forEach(names::add);
                }
            }
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /**
     * The values an enum parameter accepts, by their wire names: every constant's, or, where a tool takes only some,
     * those its {@code @Schema(allowableValues)} names (as a REST parameter tells OpenAPI the same).
     */
    private static List<String> accepted(Parameter parameter, Class<?> type) {
        Schema schema = parameter.getAnnotation(Schema.class);
        if (schema != null && schema.allowableValues().length > 0) {
            return List.of(schema.allowableValues());
        }
        return Stream.of(type.getEnumConstants()).map(constant -> WireNames.of((Enum<?>) constant)).toList();
    }

    /** The parameter's constraints, with those a constraint is composed of ({@code @UserIdentifier}'s). */
    private List<Annotation> constraints(Method method, int index) {
        MethodDescriptor described = validator.getConstraintsForClass(method.getDeclaringClass())
                .getConstraintsForMethod(method.getName(), method.getParameterTypes());
        if (described == null) {
            return List.of();
        }
        return described.getParameterDescriptors().stream().filter(parameter -> parameter.getIndex() == index)
                .map(ParameterDescriptor::getConstraintDescriptors).flatMap(Set::stream)
                .flatMap(ValidatingToolProvider::withComposing).<Annotation>map(ConstraintDescriptor::getAnnotation)
                .toList();
    }

    private static Stream<ConstraintDescriptor<?>> withComposing(ConstraintDescriptor<?> constraint) {
        return Stream.concat(Stream.of(constraint),
                constraint.getComposingConstraints().stream().flatMap(ValidatingToolProvider::withComposing));
    }

    /**
     * States what JSON Schema can say of a constraint; the others (visible text, a canonical user id) are checked
     * when the tool is called.
     */
    private static void state(ObjectNode property, Annotation constraint, boolean many) {
        String least = many ? "minItems" : "minLength";
        String most = many ? "maxItems" : "maxLength";
        switch (constraint) {
            case Size size -> {
                if (size.min() > 0) {
                    atLeast(property, least, size.min());
                }
                if (size.max() < Integer.MAX_VALUE) {
                    atMost(property, most, size.max());
                }
            }
            case NotBlank notBlank -> atLeast(property, least, 1);
            case NotEmpty notEmpty -> atLeast(property, least, 1);
            case Min min -> atLeast(property, "minimum", min.value());
            case Max max -> atMost(property, "maximum", max.value());
            default -> {
            }
        }
    }

    private static void atLeast(ObjectNode property, String keyword, long bound) {
        JsonNode stated = property.get(keyword);
        property.put(keyword, stated == null ? bound : Math.max(stated.asLong(), bound));
    }

    private static void atMost(ObjectNode property, String keyword, long bound) {
        JsonNode stated = property.get(keyword);
        property.put(keyword, stated == null ? bound : Math.min(stated.asLong(), bound));
    }

    private CallToolResult call(ToolMethod tool, Set<String> required, McpTransportContext context,
            CallToolRequest request) {
        try {
            Object[] arguments = arguments(tool.method(), context, request.arguments());
            validate(tool, required, arguments);
            Object answer = ReflectionUtils.invokeMethod(tool.method(), tool.object(), arguments);
            return CallToolResult.builder().addTextContent(json.writeValueAsString(answer)).isError(false).build();
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

    /** The method's arguments: the transport context, and each parameter's argument by its name, converted. */
    private Object[] arguments(Method method, McpTransportContext context, Map<String, Object> given) {
        Parameter[] parameters = method.getParameters();
        Object[] arguments = new Object[parameters.length];
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < parameters.length; i++) {
            Parameter parameter = parameters[i];
            if (parameter.getType() == McpTransportContext.class) {
                arguments[i] = context;
                continue;
            }
            Object value = given == null ? null : given.get(parameter.getName());
            String problem = textProblem(value);
            if (problem != null) {
                errors.add(new FieldError(parameter.getName(), problem));
            } else if (value != null) {
                try {
                    arguments[i] = json.convertValue(value,
                            json.getTypeFactory().constructType(parameter.getParameterizedType()));
                } catch (JacksonException | IllegalArgumentException e) {
                    errors.add(new FieldError(parameter.getName(), unstorableInstant(e) != null
                            ? unstorableInstant(e) : invalidValue(parameter)));
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return arguments;
    }

    /** Why a string argument (or one in an array) cannot be stored, as the REST API refuses it in a request body. */
    private static String textProblem(Object value) {
        if (value instanceof Collection<?> values) {
            return values.stream().map(ValidatingToolProvider::textProblem).filter(problem -> problem != null)
                    .findFirst().orElse(null);
        }
        return value instanceof String text ? TextSafety.problem(text) : null;
    }

    /** Why an instant argument was refused when it is well formed but beyond what PostgreSQL stores, as REST says. */
    private static String unstorableInstant(Exception e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidFormatException format && format.getTargetType() == Instant.class) {
                return format.getOriginalMessage();
            }
        }
        return null;
    }

    private static String invalidValue(Parameter parameter) {
        Class<?> element = elementType(parameter);
        Class<?> type = element != null ? element : parameter.getType();
        String expected = type == UUID.class ? "a UUID"
                : type == Instant.class ? "an ISO-8601 instant, e.g. 2024-03-01T09:00:00Z"
                : type.isEnum() ? "one of: " + WireNames.accepted(type)
                : null;
        if (expected == null) {
            return "has an invalid value";
        }
        return element != null ? "must be an array, each item " + expected : "must be " + expected;
    }

    /** The type of a collection parameter's items; null for any other parameter. */
    private static Class<?> elementType(Parameter parameter) {
        ResolvableType type = ResolvableType.forType(parameter.getParameterizedType());
        return Collection.class.isAssignableFrom(type.toClass()) ? type.asCollection().getGeneric(0).toClass() : null;
    }

    /**
     * Checks the arguments against the parameters' constraints. An argument the schema lets the caller leave out is
     * checked only when given: the constraints say what it must be, not that it must be there.
     */
    private void validate(ToolMethod tool, Set<String> required, Object[] arguments) {
        Parameter[] parameters = tool.method().getParameters();
        List<FieldError> errors = validator.forExecutables()
                .validateParameters(tool.object(), tool.method(), arguments).stream()
                .filter(violation -> {
                    int index = parameterIndex(violation);
                    return arguments[index] != null || required.contains(parameters[index].getName());
                })
                .sorted(Comparator.comparingInt(ValidatingToolProvider::parameterIndex)
                        .thenComparing(ConstraintViolation::getMessage))
                .map(violation -> new FieldError(parameters[parameterIndex(violation)].getName(),
                        violation.getMessage()))
                .toList();
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
    }

    private static int parameterIndex(ConstraintViolation<?> violation) {
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.PARAMETER) {
                return node.as(Path.ParameterNode.class).getParameterIndex();
            }
        }
        throw new IllegalStateException("Not a parameter's violation: " + violation.getPropertyPath());
    }
}
