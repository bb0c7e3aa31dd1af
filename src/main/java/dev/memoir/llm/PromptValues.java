package dev.memoir.llm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The values a step's template is filled with, each made of parts that can be shortened when the prompt would not
 * fit the model's context: a text is one part, a list of items (memories, dialogue lines, reasoning steps) one
 * part per item, so that each item is shortened rather than the last ones dropped. {@link ChatModelClient} shortens
 * the longest parts first, all to the same length, only as far as the context requires.
 */
public final class PromptValues {

    /** One placeholder's value: its parts, how they are put together, and whether they may be shortened. */
    record Value(List<String> parts, Function<List<String>, String> render, boolean fixed) {

        String rendered() {
            return render.apply(parts);
        }

        Value with(List<String> shortened) {
            return new Value(shortened, render, fixed);
        }
    }

    private final Map<String, Value> values = new LinkedHashMap<>();

    private PromptValues() {}

    public static PromptValues create() {
        return new PromptValues();
    }

    /** Every value a text of its own. */
    public static PromptValues of(Map<String, String> texts) {
        PromptValues values = new PromptValues();
        texts.forEach(values::text);
        return values;
    }

    /** A text, shortened from its end if need be. */
    public PromptValues text(String name, String text) {
        values.put(name, new Value(List.of(text), parts -> parts.getFirst(), false));
        return this;
    }

    /** A short value never shortened: a number, a name, a label. The step's schema may use it too. */
    public PromptValues fixed(String name, String value) {
        values.put(name, new Value(List.of(value), parts -> parts.getFirst(), true));
        return this;
    }

    /** Items joined by {@code separator}, each shortened from its end if need be; {@code empty} when there are none. */
    public PromptValues items(String name, List<String> items, String separator, String empty) {
        values.put(
                name,
                new Value(List.copyOf(items), parts -> parts.isEmpty() ? empty : String.join(separator, parts), false));
        return this;
    }

    /** Items put together by {@code render} (as JSON, say), each shortened from its end if need be. */
    public PromptValues items(String name, List<String> items, Function<List<String>, String> render) {
        values.put(name, new Value(List.copyOf(items), render, false));
        return this;
    }

    Map<String, Value> values() {
        return values;
    }
}
