package dev.memoir.llm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

/**
 * Prompt templates from {@code src/main/resources/prompts/}, one file per {@link ModelStep}, named after it, with
 * {@code {{name}}} placeholders. Plain placeholders rather than a template language, so that JSON in a prompt needs
 * no escaping.
 */
@Component
public class PromptTemplates {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(\\w+)}}");

    private final Map<String, String> cache = new ConcurrentHashMap<>();

    /** The step's template with its placeholders filled in; each placeholder needs a value. */
    public String render(ModelStep<?> step, Map<String, String> values) {
        return fill(step.name(), template(step.name()), values, false);
    }

    /** The step's template with the values given and every other placeholder left empty: what the values fill. */
    String skeleton(ModelStep<?> step, Map<String, String> given) {
        return fill(step.name(), template(step.name()), given, true);
    }

    /** The names of every step's template ({@code prompts/<name>.md}). */
    Set<String> names() {
        try {
            Set<String> names = new TreeSet<>();
            for (Resource resource :
                    new PathMatchingResourcePatternResolver().getResources("classpath*:prompts/*.md")) {
                names.add(resource.getFilename().replaceFirst("\\.md$", ""));
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String template(String name) {
        return cache.computeIfAbsent(name, PromptTemplates::load);
    }

    /** Fills {@code {{name}}} placeholders; a JSON schema of a step is filled the same way. */
    static String fill(String name, String template, Map<String, String> values, boolean missingAsEmpty) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String value = values.get(matcher.group(1));
            if (value == null && !missingAsEmpty) {
                throw new IllegalArgumentException("Prompt " + name + " needs a value for " + matcher.group(1));
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static String load(String name) {
        try {
            return new ClassPathResource("prompts/" + name + ".md").getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Missing prompt template prompts/" + name + ".md", e);
        }
    }
}
