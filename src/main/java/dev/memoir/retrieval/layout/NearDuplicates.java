package dev.memoir.retrieval.layout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The texts a reply's memory already shows, to tell when another says nearly the same: a message pasted twice, an
 * error reported again with one line changed, a reply repeated word for word. Two texts are near duplicates when
 * nine tenths of the word triples of the shorter one are in the other and the other holds every number the text
 * does; it then counts once, and its room goes to other evidence. A text that changes a number ("my budget is now
 * $700") is an update, never a repeat.
 */
final class NearDuplicates {

    /** The share of the shorter text's word triples found in the other that makes two texts near duplicates. */
    static final double THRESHOLD = 0.9;

    /** Texts shorter than this many words are compared whole: a short turn ("Thanks!") repeats without harm. */
    private static final int MIN_WORDS = 12;

    /** Only the beginning of a long text is compared: enough to tell, and cheap. */
    private static final int MAX_WORDS = 400;

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]+");
    private static final Pattern NUMBER = Pattern.compile("\\p{N}+(?:[.,]\\p{N}+)*");

    /** A shown text's word triples and its numbers. */
    private record Shown(Set<String> triples, Set<String> numbers) {}

    private final List<Shown> shown = new ArrayList<>();

    /** Whether the text nearly duplicates one shown already. */
    boolean repeats(String text) {
        Set<String> triples = triples(text);
        if (triples.isEmpty()) {
            return false;
        }
        Set<String> numbers = numbers(text);
        for (Shown other : shown) {
            if (!other.numbers().containsAll(numbers)) {
                continue;
            }
            Set<String> smaller = triples.size() <= other.triples().size() ? triples : other.triples();
            Set<String> larger = smaller == triples ? other.triples() : triples;
            long common = smaller.stream().filter(larger::contains).count();
            if (common >= THRESHOLD * smaller.size()) {
                return true;
            }
        }
        return false;
    }

    void add(String text) {
        Set<String> triples = triples(text);
        if (!triples.isEmpty()) {
            shown.add(new Shown(triples, numbers(text)));
        }
    }

    private static Set<String> numbers(String text) {
        Set<String> numbers = new HashSet<>();
        Matcher matcher = NUMBER.matcher(text);
        while (matcher.find()) {
            numbers.add(matcher.group());
        }
        return numbers;
    }

    private static Set<String> triples(String text) {
        List<String> words = new ArrayList<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find() && words.size() < MAX_WORDS) {
            words.add(matcher.group());
        }
        Set<String> triples = new HashSet<>();
        if (words.size() < MIN_WORDS) {
            return triples;
        }
        for (int i = 0; i + 2 < words.size(); i++) {
            triples.add(words.get(i) + ' ' + words.get(i + 1) + ' ' + words.get(i + 2));
        }
        return triples;
    }
}
