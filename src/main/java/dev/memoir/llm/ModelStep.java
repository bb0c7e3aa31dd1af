package dev.memoir.llm;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

import tools.jackson.databind.JsonNode;

/**
 * Everything about one step of a pipeline that calls the chat model, in one place: its name (the prompt template
 * {@code prompts/<name>.md} and the {@value #HEADER} header its requests carry), the label logs, errors and the
 * {@code step} tag of the {@code memoir.model.*} metrics use, and, for a step that asks for JSON, the schema sent as
 * the {@code response_format} and the lenient reader of the answer (empty when the answer is not one the step can
 * use). The schema may bound values by the request ({@code "maximum": {{lines}}}); the reader gets the same values,
 * and takes every answer the schema allows, but for text the schema cannot require (a blank reply), since the
 * keywords that could (minLength, pattern) are not accepted by every server's strict mode.
 * Callers ask {@link ChatModelClient} with the descriptor, so that a step cannot send another step's template,
 * schema or tag. Descriptors are constants next to the answer they read.
 *
 * @param <T> what the step's answer is read into ({@code String} for a plain-text step)
 */
public record ModelStep<T>(
        String name, String label, String jsonSchema, BiFunction<JsonNode, Map<String, String>, Optional<T>> reader) {

    /**
     * The HTTP header naming the step of a chat-completions request. OpenAI-compatible servers ignore headers they
     * do not know; a proxy or a test fake can tell the steps apart by it without reading the prompt.
     */
    public static final String HEADER = "X-Memoir-Step";

    public ModelStep {
        Objects.requireNonNull(name);
        Objects.requireNonNull(label);
        if (!name.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("A step's name is a template file name in kebab case: " + name);
        }
        if ((jsonSchema == null) != (reader == null)) {
            throw new IllegalArgumentException("A JSON step needs both its schema and its reader: " + name);
        }
    }

    /** A step that asks for a JSON object following {@code jsonSchema}, read by {@code reader}. */
    public static <T> ModelStep<T> json(String name, String jsonSchema, Function<JsonNode, Optional<T>> reader) {
        return new ModelStep<>(name, name, jsonSchema, (json, values) -> reader.apply(json));
    }

    /**
     * A step whose reader also gets the request's values (the same that fill the schema's placeholders), for an
     * answer that refers to what the request showed: a line of the dialogue, an option's number.
     */
    public static <T> ModelStep<T> json(
            String name, String jsonSchema, BiFunction<JsonNode, Map<String, String>, Optional<T>> reader) {
        return new ModelStep<>(name, name, jsonSchema, reader);
    }

    /** A step that asks for plain text. */
    public static ModelStep<String> text(String name) {
        return new ModelStep<>(name, name, null, null);
    }

    /**
     * The same step counted, logged and named in errors as {@code label}: for steps that are parts of one larger
     * step, such as R^3's search steps and its final inference, which are both counted as {@code reasoning}.
     */
    public ModelStep<T> labelled(String label) {
        return new ModelStep<>(name, label, jsonSchema, reader);
    }

    /**
     * The JSON schema sent for one request, its {@code {{name}}} placeholders filled with the request's values: a
     * schema can bound what the reader will look up (an option's number, a line of the dialogue shown).
     */
    public String schema(Map<String, String> values) {
        return PromptTemplates.fill(name, jsonSchema, values, false);
    }

    /** Whether the step asks for JSON (else for plain text). */
    public boolean structured() {
        return jsonSchema != null;
    }

    @Override
    public String toString() {
        return name;
    }
}
