package dev.memoir.llm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lays a step's values into its template within a token limit. When the whole prompt fits it is sent as it is;
 * otherwise every part of every value (a text, or one item of a list) is cut to one common length, the longest
 * that fits, so that the longest parts are shortened first and the short ones not at all.
 */
final class PromptFitter {

    /** A prompt ready to send: its text, its size, and each value as laid out in it. */
    record Fitted(String prompt, int tokens, Map<String, String> values, boolean shortened) {}

    private final TokenCounter tokens;

    PromptFitter(TokenCounter tokens) {
        this.tokens = tokens;
    }

    Fitted fit(String name, String template, PromptValues values, int limit) {
        Map<String, PromptValues.Value> whole = values.values();
        Fitted fitted = render(name, template, whole, false);
        if (fitted.tokens() <= limit) {
            return fitted;
        }
        int longest = whole.values().stream()
                .filter(v -> !v.fixed())
                .flatMap(v -> v.parts().stream())
                .mapToInt(tokens::count)
                .max()
                .orElse(0);
        Fitted best = null;
        int low = 0;
        int high = longest - 1;
        while (low <= high) {
            int cap = (low + high) >>> 1;
            Fitted candidate = render(name, template, cut(whole, cap), true);
            if (candidate.tokens() <= limit) {
                best = candidate;
                low = cap + 1;
            } else {
                high = cap - 1;
            }
        }
        if (best == null) {
            throw new IllegalStateException("The prompt of step " + name + " does not fit " + limit
                    + " tokens even with its values left out: memoir.model.context-tokens is too small");
        }
        return best;
    }

    private Map<String, PromptValues.Value> cut(Map<String, PromptValues.Value> values, int cap) {
        Map<String, PromptValues.Value> cut = new LinkedHashMap<>();
        values.forEach((name, value) -> cut.put(
                name,
                value.fixed()
                        ? value
                        : value.with(value.parts().stream()
                                .map(part -> tokens.truncate(part, cap))
                                .toList())));
        return cut;
    }

    private Fitted render(String name, String template, Map<String, PromptValues.Value> values, boolean shortened) {
        Map<String, String> rendered = new LinkedHashMap<>();
        values.forEach((key, value) -> rendered.put(key, value.rendered()));
        String prompt = PromptTemplates.fill(name, template, rendered, false);
        return new Fitted(prompt, tokens.count(prompt), rendered, shortened);
    }
}
