package dev.memoir.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a text into overlapping passages of at most {@code size} tokens, at word boundaries, each starting
 * {@code overlap} tokens before the one before it ended, so that no sentence is only ever seen cut in two. A text
 * within one passage is one passage.
 */
final class PassageSplitter {

    /** A word with the space before it: BPE tokenizers read " word" as one token where "word " is two. */
    private static final Pattern WORD = Pattern.compile("\\s*\\S+");

    private final TokenCounter tokens;
    private final int size;
    private final int overlap;

    PassageSplitter(TokenCounter tokens, int size, int overlap) {
        this.tokens = tokens;
        this.size = size;
        this.overlap = overlap;
    }

    /** A passage: characters {@code start} (inclusive) to {@code end} (exclusive), and its size in tokens. */
    record Span(int start, int end, int tokens) {}

    List<Span> split(String text) {
        int whole = tokens.count(text);
        if (size == 0 || whole <= size) {
            return List.of(new Span(0, text.length(), whole));
        }
        List<int[]> words = new ArrayList<>();
        Matcher word = WORD.matcher(text);
        while (word.find()) {
            int start = word.start();
            while (Character.isWhitespace(text.charAt(start))) {
                start++;
            }
            words.add(new int[] {start, word.end(), Math.max(1, tokens.count(word.group()))});
        }
        List<Span> spans = new ArrayList<>();
        int first = 0;
        while (first < words.size()) {
            int last = first;
            int used = words.get(first)[2];
            while (last + 1 < words.size() && used + words.get(last + 1)[2] <= size) {
                last++;
                used += words.get(last)[2];
            }
            spans.add(new Span(words.get(first)[0], words.get(last)[1], used));
            if (last == words.size() - 1) {
                break;
            }
            // The next passage takes up the last words of this one, about `overlap` tokens of them.
            int next = last + 1;
            int back = 0;
            while (next - 1 > first && back + words.get(next - 1)[2] <= overlap) {
                next--;
                back += words.get(next)[2];
            }
            first = next;
        }
        return spans;
    }
}
