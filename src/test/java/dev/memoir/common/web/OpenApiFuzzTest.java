package dev.memoir.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;
import dev.memoir.support.RawHttp;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every operation the OpenAPI description lists, with every parameter and every string field of its body in turn
 * replaced by hostile input: none may answer 500, and every refusal is a ProblemDetail. New endpoints are covered
 * as soon as they are documented.
 */
class OpenApiFuzzTest extends IntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Query and path values, written raw into the request line. */
    private static final List<String> HOSTILE_PARAMETERS = List.of(
            "%00",
            "%FF",
            "%C0%AF",
            "%ED%A0%80",
            "%E2%80%8B",
            "-1",
            "99999999999999999999",
            "%20",
            "..%2F..%2Fadmin",
            "x".repeat(5000),
            "%22%3E%3Cscript%3E");

    /** JSON string literals (already quoted and escaped) and values of the wrong type. */
    private static final List<String> HOSTILE_JSON = List.of(
            "\"a\\u0000b\"",
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "\"\\u200b\\u2060\"",
            "\"\"",
            "\"" + "y".repeat(40_000) + "\"",
            "12345678901234567890",
            "-1",
            "true",
            "{\"nested\": 1}",
            "[\"a\", null]",
            "null");

    private record Operation(String method, String path, JsonNode spec) {}

    @Test
    void noHostileParameterOrBodyFieldOfAnyDocumentedOperationAnswers500() {
        String key = api.newTenant();
        String session = api.newSession(key, "fuzz", null);
        JsonNode docs = api.get(null, "/v3/api-docs").body();
        List<Operation> operations = new ArrayList<>();
        docs.path("paths")
                .properties()
                .forEach(path -> path.getValue()
                        .properties()
                        .forEach(method -> operations.add(
                                new Operation(method.getKey().toUpperCase(), path.getKey(), method.getValue()))));
        assertThat(operations).as("documented operations").hasSizeGreaterThan(15);

        List<String> failures = new ArrayList<>();
        int requests = 0;
        for (Operation operation : operations) {
            String auth =
                    operation.path().startsWith("/admin") || operation.path().startsWith("/actuator")
                            ? Api.BOOTSTRAP_KEY
                            : key;
            JsonNode body = sampleBody(docs, operation.spec(), session);
            List<JsonNode> parameters = new ArrayList<>();
            operation.spec().path("parameters").forEach(parameters::add);

            for (int p = 0; p <= parameters.size(); p++) {
                for (String hostile : p < parameters.size() ? HOSTILE_PARAMETERS : List.of("unused")) {
                    String path =
                            target(operation.path(), parameters, p < parameters.size() ? p : -1, hostile, session);
                    failures.addAll(check(operation, path, auth, body == null ? null : JSON.writeValueAsString(body)));
                    requests++;
                }
            }
            if (body != null) {
                String path = target(operation.path(), parameters, -1, null, session);
                for (List<Object> field : stringFields(body, new ArrayList<>())) {
                    for (String hostile : HOSTILE_JSON) {
                        failures.addAll(check(operation, path, auth, withValue(body, field, hostile)));
                        requests++;
                    }
                }
            }
        }
        assertThat(requests).isGreaterThan(300);
        assertThat(failures).as("requests that failed badly").isEmpty();
    }

    /**
     * Every enum the OpenAPI description lists, in a query parameter or anywhere in a request body, refuses a value
     * it does not know with a 400 that names the field and lists every accepted value, and never a Java name.
     */
    @Test
    void everyEnumFieldRefusesAnUnknownValueListingTheAcceptedOnes() {
        String key = api.newTenant();
        String session = api.newSession(key, "fuzz", null);
        JsonNode docs = api.get(null, "/v3/api-docs").body();
        List<String> failures = new ArrayList<>();
        int enums = 0;
        for (Map.Entry<String, JsonNode> path : docs.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                Operation operation = new Operation(method.getKey().toUpperCase(), path.getKey(), method.getValue());
                String auth = operation.path().startsWith("/admin") ? Api.BOOTSTRAP_KEY : key;
                List<JsonNode> parameters = new ArrayList<>();
                operation.spec().path("parameters").forEach(parameters::add);
                JsonNode body = sampleBody(docs, operation.spec(), session);
                for (int p = 0; p < parameters.size(); p++) {
                    JsonNode schema = resolve(docs, parameters.get(p).path("schema"));
                    if (schema.has("enum")) {
                        enums++;
                        String target = target(operation.path(), parameters, p, "not-a-value", session);
                        failures.addAll(checkEnumError(
                                operation,
                                target,
                                auth,
                                body == null ? null : JSON.writeValueAsString(body),
                                schema.path("enum")));
                    }
                }
                if (body != null) {
                    JsonNode bodySchema = operation
                            .spec()
                            .path("requestBody")
                            .path("content")
                            .path("application/json")
                            .path("schema");
                    String target = target(operation.path(), parameters, -1, null, session);
                    for (Map.Entry<List<Object>, JsonNode> field :
                            enumFields(docs, bodySchema, new ArrayList<>(), 0).entrySet()) {
                        enums++;
                        failures.addAll(checkEnumError(
                                operation,
                                target,
                                auth,
                                withValue(body, field.getKey(), "\"not-a-value\""),
                                field.getValue()));
                    }
                }
            }
        }
        assertThat(enums).as("enum fields and parameters documented").isGreaterThanOrEqualTo(6);
        assertThat(failures).isEmpty();
    }

    private List<String> checkEnumError(Operation operation, String path, String auth, String body, JsonNode accepted) {
        RawHttp.Response response = raw(operation.method(), path, auth, body);
        String what = operation.method() + " " + abbreviate(path) + " " + abbreviate(body) + " -> " + response.status()
                + " " + abbreviate(response.body());
        List<String> failures = new ArrayList<>();
        if (response.status() != 400) {
            failures.add("not a 400: " + what);
        }
        for (JsonNode value : accepted) {
            if (!response.body().contains(value.asString())) {
                failures.add("does not list '" + value.asString() + "': " + what);
            }
        }
        for (String javaName : List.of("dev.memoir", "No enum constant", "java.lang", "Exception")) {
            if (response.body().contains(javaName)) {
                failures.add("names '" + javaName + "': " + what);
            }
        }
        return failures;
    }

    private static JsonNode resolve(JsonNode docs, JsonNode schema) {
        if (schema.has("$ref")) {
            String ref = schema.path("$ref").asString();
            return resolve(docs, docs.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1)));
        }
        return schema;
    }

    /** Every enum field of a body schema, by its path in {@link #sample}'s body, with its accepted values. */
    private static Map<List<Object>, JsonNode> enumFields(JsonNode docs, JsonNode schema, List<Object> at, int depth) {
        Map<List<Object>, JsonNode> found = new LinkedHashMap<>();
        JsonNode resolved = resolve(docs, schema);
        if (depth > 6) {
            return found;
        }
        if (resolved.has("enum")) {
            found.put(List.copyOf(at), resolved.path("enum"));
        } else if (resolved.path("type").asString().equals("object")) {
            resolved.path("properties").properties().forEach(property -> {
                List<Object> next = new ArrayList<>(at);
                next.add(property.getKey());
                found.putAll(enumFields(docs, property.getValue(), next, depth + 1));
            });
        } else if (resolved.path("type").asString().equals("array")) {
            List<Object> next = new ArrayList<>(at);
            next.add(0);
            found.putAll(enumFields(docs, resolved.path("items"), next, depth + 1));
        }
        return found;
    }

    private List<String> check(Operation operation, String path, String auth, String body) {
        RawHttp.Response response = raw(operation.method(), path, auth, body);
        String what = operation.method() + " " + abbreviate(path) + " " + abbreviate(body) + " -> " + response.status()
                + " " + abbreviate(response.body());
        if (response.status() >= 500
                && response.status() != 502
                && response.status() != 503
                && response.status() != 504) {
            return List.of(what);
        }
        if (response.status() >= 400 && path.startsWith("/v1/")) {
            // The OpenAI-compatible endpoints answer in OpenAI's error body, with the same codes.
            if (!response.body().contains("\"error\"") || !response.body().contains("\"code\"")) {
                return List.of("not an OpenAI error: " + what);
            }
        } else if (response.status() >= 400) {
            String type = response.header("Content-Type");
            if (type == null
                    || !type.startsWith("application/problem+json")
                    || !response.body().contains("\"code\"")) {
                return List.of("not a ProblemDetail: " + what);
            }
        }
        return List.of();
    }

    /** The operation's path with its path parameters filled (one of them hostile) and its query parameters. */
    private static String target(
            String template, List<JsonNode> parameters, int hostileIndex, String hostile, String session) {
        String path = template;
        StringBuilder query = new StringBuilder();
        for (int i = 0; i < parameters.size(); i++) {
            JsonNode parameter = parameters.get(i);
            String name = parameter.path("name").asString();
            String value = i == hostileIndex ? hostile : sampleParameter(name, parameter.path("schema"), session);
            if ("path".equals(parameter.path("in").asString())) {
                path = path.replace("{" + name + "}", value);
            } else if ("query".equals(parameter.path("in").asString()) && value != null) {
                query.append(query.isEmpty() ? '?' : '&')
                        .append(name)
                        .append('=')
                        .append(value);
            }
        }
        return path + query;
    }

    private static String sampleParameter(String name, JsonNode schema, String session) {
        if (name.equals("userId")) {
            return "fuzz";
        }
        if (name.equals("sessionId")
                || name.equals("id") && schema.path("format").asString().equals("uuid")) {
            return session;
        }
        if (schema.path("format").asString().equals("uuid")) {
            return UUID.randomUUID().toString();
        }
        if (schema.has("enum")) {
            return schema.path("enum").get(0).asString();
        }
        return switch (schema.path("type").asString()) {
            case "integer", "number" -> "1";
            case "boolean" -> "true";
            case "string" -> schema.path("format").asString().equals("date-time") ? "2024-01-01T00:00:00Z" : "word";
            default -> null;
        };
    }

    private static JsonNode sampleBody(JsonNode docs, JsonNode operation, String session) {
        JsonNode schema = operation
                .path("requestBody")
                .path("content")
                .path("application/json")
                .path("schema");
        return schema.isMissingNode() ? null : sample(docs, schema, session, "", 0);
    }

    private static JsonNode sample(JsonNode docs, JsonNode schema, String session, String name, int depth) {
        if (schema.has("$ref")) {
            String ref = schema.path("$ref").asString();
            return sample(
                    docs,
                    docs.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1)),
                    session,
                    name,
                    depth + 1);
        }
        if (depth > 6) {
            return NODES.nullNode();
        }
        if (schema.has("enum")) {
            return NODES.stringNode(schema.path("enum").get(0).asString());
        }
        switch (schema.path("type").asString()) {
            case "object": {
                ObjectNode object = NODES.objectNode();
                schema.path("properties")
                        .properties()
                        .forEach(property -> object.set(
                                property.getKey(),
                                sample(docs, property.getValue(), session, property.getKey(), depth + 1)));
                return object;
            }
            case "array": {
                ArrayNode array = NODES.arrayNode();
                array.add(sample(docs, schema.path("items"), session, name, depth + 1));
                return array;
            }
            case "integer", "number":
                return NODES.numberNode(1);
            case "boolean":
                return NODES.booleanNode(false);
            default:
                if (schema.path("format").asString().equals("uuid")) {
                    return NODES.stringNode(
                            name.equals("sessionId")
                                    ? session
                                    : UUID.randomUUID().toString());
                }
                if (schema.path("format").asString().equals("date-time")) {
                    return NODES.nullNode();
                }
                return NODES.stringNode(name.equals("role") ? "user" : name.equals("userId") ? "fuzz" : "word");
        }
    }

    /** The path (names and indexes) of every string field of the body. */
    private static List<List<Object>> stringFields(JsonNode node, List<Object> at) {
        List<List<Object>> found = new ArrayList<>();
        if (node.isString()) {
            found.add(List.copyOf(at));
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                List<Object> next = new ArrayList<>(at);
                next.add(field.getKey());
                found.addAll(stringFields(field.getValue(), next));
            }
        } else if (node.isArray()) {
            Iterator<JsonNode> items = node.iterator();
            for (int i = 0; items.hasNext(); i++) {
                List<Object> next = new ArrayList<>(at);
                next.add(i);
                found.addAll(stringFields(items.next(), next));
            }
        }
        return found;
    }

    /** The body with the field at {@code at} replaced by the raw JSON {@code value}. */
    private static String withValue(JsonNode body, List<Object> at, String value) {
        String marker = "__hostile_" + UUID.randomUUID() + "__";
        JsonNode copy = body.deepCopy();
        JsonNode parent = copy;
        for (int i = 0; i < at.size() - 1; i++) {
            parent = at.get(i) instanceof Integer index ? parent.get(index) : parent.get((String) at.get(i));
        }
        Object last = at.getLast();
        if (last instanceof Integer index) {
            ((ArrayNode) parent).set(index, NODES.stringNode(marker));
        } else {
            ((ObjectNode) parent).put((String) last, marker);
        }
        return JSON.writeValueAsString(copy).replace("\"" + marker + "\"", value);
    }

    private RawHttp.Response raw(String method, String path, String key, String body) {
        return new RawHttp(api.port()).send(method, path, key, body);
    }

    private static String abbreviate(String text) {
        return text == null ? "" : text.length() <= 160 ? text : text.substring(0, 160) + "...";
    }
}
