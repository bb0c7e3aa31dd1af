package dev.memoir.mcp;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validator;

import io.modelcontextprotocol.common.McpTransportContext;

import org.springframework.core.ResolvableType;

import dev.memoir.common.web.FieldError;
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.common.wire.TextSafety;
import dev.memoir.common.wire.WireNames;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tool call's arguments, converted with the application's JsonMapper and validated by the application's Validator
 * against the same constraint annotations as the REST requests, so that a refusal ({@link InvalidRequestException})
 * names the argument with REST's message.
 */
final class ToolArguments {

    private final Validator validator;
    private final JsonMapper json;

    ToolArguments(Validator validator, JsonMapper json) {
        this.validator = validator;
        this.json = json;
    }

    /** The method's arguments: the transport context, and each parameter's argument by its name, converted. */
    Object[] convert(Method method, McpTransportContext context, Map<String, Object> given) {
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
                    arguments[i] = json.convertValue(
                            value, json.getTypeFactory().constructType(parameter.getParameterizedType()));
                } catch (JacksonException | IllegalArgumentException e) {
                    errors.add(new FieldError(
                            parameter.getName(),
                            unstorableInstant(e) != null ? unstorableInstant(e) : invalidValue(parameter)));
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
            return values.stream()
                    .map(ToolArguments::textProblem)
                    .filter(problem -> problem != null)
                    .findFirst()
                    .orElse(null);
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
        String expected = type == UUID.class
                ? "a UUID"
                : type == Instant.class
                        ? "an ISO-8601 instant, e.g. 2024-03-01T09:00:00Z"
                        : type.isEnum() ? "one of: " + WireNames.accepted(type) : null;
        if (expected == null) {
            return "has an invalid value";
        }
        return element != null ? "must be an array, each item " + expected : "must be " + expected;
    }

    /**
     * Checks the arguments against the parameters' constraints. An argument the schema lets the caller leave out is
     * checked only when given: the constraints say what it must be, not that it must be there.
     */
    void validate(Object object, Method method, Set<String> required, Object[] arguments) {
        Parameter[] parameters = method.getParameters();
        List<FieldError> errors = validator.forExecutables().validateParameters(object, method, arguments).stream()
                .filter(violation -> {
                    int index = parameterIndex(violation);
                    return arguments[index] != null || required.contains(parameters[index].getName());
                })
                .sorted(Comparator.comparingInt(ToolArguments::parameterIndex)
                        .thenComparing(ConstraintViolation::getMessage))
                .map(violation ->
                        new FieldError(parameters[parameterIndex(violation)].getName(), violation.getMessage()))
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

    /** The type of a collection parameter's items; null for any other parameter. */
    static Class<?> elementType(Parameter parameter) {
        ResolvableType type = ResolvableType.forType(parameter.getParameterizedType());
        return Collection.class.isAssignableFrom(type.toClass())
                ? type.asCollection().getGeneric(0).toClass()
                : null;
    }
}
