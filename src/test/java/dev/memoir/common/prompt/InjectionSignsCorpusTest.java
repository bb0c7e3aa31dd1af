package dev.memoir.common.prompt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The poisoning screen on its corpus (src/test/resources/poisoning, written apart from the patterns): every one of
 * the poisoning cases shows a sign, and none of the ordinary texts does: technical text that says "ignore" or
 * "system", a user's own standing instructions, JSON payloads, short hashes, emoji with joiners, right-to-left
 * scripts.
 */
class InjectionSignsCorpusTest {

    private static final Pattern ESCAPE = Pattern.compile("\\\\U([0-9A-Fa-f]{8})|\\\\u([0-9A-Fa-f]{4})|\\\\n");
    private static final Pattern BLOB = Pattern.compile("\\{\\{(BASE64|HEX):(\\d+)}}");
    private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /** The corpus's cases, their escapes decoded and blobs made (the same every run). */
    static List<String> cases(String file) throws IOException {
        List<String> cases = new ArrayList<>();
        Random random = new Random(43);
        try (InputStream in = InjectionSignsCorpusTest.class.getResourceAsStream("/poisoning/" + file)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    cases.add(blobs(escapes(line), random));
                }
            }
        }
        return cases;
    }

    private static String escapes(String line) {
        Matcher m = ESCAPE.matcher(line);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = m.group(1) != null
                    ? Character.toString(Integer.parseInt(m.group(1), 16))
                    : m.group(2) != null ? Character.toString(Integer.parseInt(m.group(2), 16)) : "\n";
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }

    private static String blobs(String line, Random random) {
        Matcher m = BLOB.matcher(line);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String alphabet = m.group(1).equals("HEX") ? "0123456789abcdef" : BASE64;
            StringBuilder blob = new StringBuilder();
            for (int i = Integer.parseInt(m.group(2)); i > 0; i--) {
                blob.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(blob.toString()));
        }
        return m.appendTail(out).toString();
    }

    @Test
    void everyPoisoningCaseShowsASign() throws IOException {
        List<String> cases = cases("poison.txt");
        assertThat(cases).hasSizeGreaterThanOrEqualTo(100);
        assertThat(cases.stream().filter(text -> InjectionSigns.of(text).isEmpty()))
                .as("poisoning cases that show no sign")
                .isEmpty();
    }

    @Test
    void noOrdinaryTextShowsASign() throws IOException {
        List<String> cases = cases("ordinary.txt");
        assertThat(cases).hasSizeGreaterThanOrEqualTo(100);
        assertThat(cases.stream()
                        .filter(text -> !InjectionSigns.of(text).isEmpty())
                        .map(text -> InjectionSigns.of(text) + " " + text))
                .as("ordinary texts that show a sign")
                .isEmpty();
    }
}
