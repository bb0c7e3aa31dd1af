package dev.memoir.llm;

import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.JsonNode;

/**
 * Reads the model's answer as its step reads it: a plain-text step's text, a JSON step's object (found leniently
 * in the text) through the step's reader. Logs only sizes and reasons, never the answer, which may repeat the
 * user's words.
 */
final class AnswerReader {

    private static final Logger log = LoggerFactory.getLogger(AnswerReader.class);

    private final ModelCallMeters meters;

    AnswerReader(ModelCallMeters meters) {
        this.meters = meters;
    }

    /** The answer read as the step reads it; one it cannot use fails the call. */
    <T> T usable(ModelStep<T> step, String text, Map<String, String> values) {
        if (!step.structured()) {
            if (text.isBlank()) {
                throw unusable(step, "it was empty");
            }
            return plainText(step, text);
        }
        ModelAnswer answer = answer(step, text);
        if (answer.json().isEmpty()) {
            throw unusable(step, answer.text().isBlank() ? "it was empty" : "it was not the JSON object asked for");
        }
        return read(step, answer.json().get(), values)
                .orElseThrow(() -> unusable(step, "its JSON did not follow the schema asked for"));
    }

    /** The answer read as the step reads it, or empty if the step cannot use it. */
    <T> Optional<T> usableOrEmpty(ModelStep<T> step, String text, Map<String, String> values) {
        if (!step.structured()) {
            return text.isBlank() ? Optional.empty() : Optional.of(plainText(step, text));
        }
        return answer(step, text).json().flatMap(json -> read(step, json, values));
    }

    private static ModelAnswer answer(ModelStep<?> step, String text) {
        ModelAnswer answer = new ModelAnswer(text, LenientJson.object(text));
        if (answer.json().isEmpty()) {
            // Sizes only: the answer may repeat the user's words, which must not outlive an erasure in the logs.
            log.warn(
                    "The model's answer for {} is not the JSON asked for ({} characters)", step.label(), text.length());
        }
        return answer;
    }

    private static <T> Optional<T> read(ModelStep<T> step, JsonNode json, Map<String, String> values) {
        try {
            return step.reader().apply(json, values);
        } catch (RuntimeException e) {
            // A reader that trips over a value (a number out of range, say) met an answer it cannot use.
            return Optional.empty();
        }
    }

    /** A plain-text step's answer is its text ({@link ModelStep#text} makes such steps {@code ModelStep<String>}). */
    @SuppressWarnings("unchecked")
    private static <T> T plainText(ModelStep<T> step, String text) {
        return (T) LenientJson.clip(text.strip());
    }

    private ModelCallException unusable(ModelStep<?> step, String why) {
        meters.unusable(step);
        log.warn("The model's answer for {} could not be used: {}", step.label(), why);
        return ModelCallException.unusableAnswer(step, why);
    }
}
