package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.memoir.support.SchemaAnswers;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Each step's schema asks for no more than its reader takes: answers generated at random under each step's schema
 * (rendered with random request values, as a request renders it) are read by the step's reader with the same values,
 * and every one is usable. The one exception is what JSON Schema, as every server's strict mode takes it, cannot
 * forbid: blank text. A reader may refuse an answer only where it needs text (a reply, a memo's topic or summary, a
 * reasoning step's argument, a session's summary), and the same answer with its blank strings filled in must then be usable.
 */
class StepAnswersPropertyTest {

    private static final int ANSWERS_PER_STEP = 400;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(\\w+)}}");

    /** The steps whose readers need some text and refuse an answer whose only text is blank. */
    private static final Set<String> NEED_TEXT = Set.of("reply", "memo-writing", "r3-step", "session-summary");

    @Test
    void everyAnswerAStepsSchemaAllowsIsOneItsReaderTakesButForBlankText() {
        Set<String> refusingBlankText = new TreeSet<>();
        for (ModelStep<?> step : DeclaredSteps.all()) {
            if (!step.structured()) {
                continue;
            }
            Random random = new Random(step.name().hashCode());
            SchemaAnswers answers = new SchemaAnswers(random.nextLong());
            for (int i = 0; i < ANSWERS_PER_STEP; i++) {
                Map<String, String> values = requestValues(step.jsonSchema(), random);
                JsonNode answer = answers.answer(step.schema(values));
                Optional<?> read = step.reader().apply(answer, values);
                if (read.isPresent()) {
                    continue;
                }
                JsonNode filled = fillBlanks(answer.deepCopy());
                assertThat(filled)
                        .as(step.name() + ": a refused answer without blank text: " + answer)
                        .isNotEqualTo(answer);
                assertThat(step.reader().apply(filled, values))
                        .as(step.name() + " refused " + filled)
                        .isPresent();
                refusingBlankText.add(step.name());
            }
        }
        assertThat(NEED_TEXT).as("the steps that refuse blank text").containsAll(refusingBlankText);
    }

    /**
     * Values for the schema's placeholders, as a request gives them: counts of what it shows (at least 1), and
     * a range of turn numbers ({@code first} to {@code last}) or, alone, the last position of a list.
     */
    private static Map<String, String> requestValues(String schema, Random random) {
        Map<String, String> values = new HashMap<>();
        Matcher placeholders = PLACEHOLDER.matcher(schema);
        while (placeholders.find()) {
            values.put(placeholders.group(1), Integer.toString(1 + random.nextInt(8)));
        }
        if (values.containsKey("first")) {
            int first = random.nextInt(40);
            values.put("first", Integer.toString(first));
            values.put("last", Integer.toString(first + random.nextInt(12)));
        } else if (values.containsKey("last")) {
            values.put("last", Integer.toString(random.nextInt(6)));
        }
        return values;
    }

    private static JsonNode fillBlanks(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (String name : List.copyOf(object.propertyNames())) {
                object.set(name, fillBlanks(object.get(name)));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, fillBlanks(array.get(i)));
            }
        } else if (node instanceof StringNode text && text.asString().isBlank()) {
            return StringNode.valueOf("filled in");
        }
        return node;
    }
}
