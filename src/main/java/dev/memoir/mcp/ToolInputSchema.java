package dev.memoir.mcp;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import jakarta.validation.Validator;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import jakarta.validation.metadata.ConstraintDescriptor;
import jakarta.validation.metadata.MethodDescriptor;
import jakarta.validation.metadata.ParameterDescriptor;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.memoir.common.wire.WireNames;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's input schema as the caller should see it: Spring AI generates it from the method's parameters, and this
 * adds what the generator leaves out, the parameters' constraints (lengths, numbers of items, ranges), enum values by
 * their wire names, and that no other argument is accepted.
 */
final class ToolInputSchema {

    private final Validator validator;
    private final JsonMapper json;

    ToolInputSchema(Validator validator, JsonMapper json) {
        this.validator = validator;
        this.json = json;
    }

    /** The tool's input schema: the generated one, with what it leaves out stated. */
    ObjectNode of(Tool tool, Method method) {
        ObjectNode schema = json.valueToTree(tool.inputSchema());
        JsonNode properties = schema.path("properties");
        Parameter[] parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (properties.get(parameters[i].getName()) instanceof ObjectNode property) {
                Class<?> element = ToolArguments.elementType(parameters[i]);
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
        return Stream.of(type.getEnumConstants())
                .map(constant -> WireNames.of((Enum<?>) constant))
                .toList();
    }

    /** The parameter's constraints, with those a constraint is composed of ({@code @UserIdentifier}'s). */
    private List<Annotation> constraints(Method method, int index) {
        MethodDescriptor described = validator
                .getConstraintsForClass(method.getDeclaringClass())
                .getConstraintsForMethod(method.getName(), method.getParameterTypes());
        if (described == null) {
            return List.of();
        }
        return described.getParameterDescriptors().stream()
                .filter(parameter -> parameter.getIndex() == index)
                .map(ParameterDescriptor::getConstraintDescriptors)
                .flatMap(Set::stream)
                .flatMap(ToolInputSchema::withComposing)
                .<Annotation>map(ConstraintDescriptor::getAnnotation)
                .toList();
    }

    private static Stream<ConstraintDescriptor<?>> withComposing(ConstraintDescriptor<?> constraint) {
        return Stream.concat(
                Stream.of(constraint),
                constraint.getComposingConstraints().stream().flatMap(ToolInputSchema::withComposing));
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
            default -> {}
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
}
