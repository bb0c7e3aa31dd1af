package dev.memoir.writing;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Keeps a text to its first N sentences: the recursive summary's length cap holds whatever the model wrote. */
final class SentenceLimit {

    private SentenceLimit() {}

    static String firstSentences(String text, int max) {
        List<String> sentences = new ArrayList<>();
        for (String line : text.strip().split("\\R+")) {
            BreakIterator iterator = BreakIterator.getSentenceInstance(Locale.ENGLISH);
            iterator.setText(line);
            int start = iterator.first();
            for (int end = iterator.next(); end != BreakIterator.DONE; start = end, end = iterator.next()) {
                String sentence = line.substring(start, end).strip();
                if (!sentence.isEmpty()) {
                    sentences.add(sentence);
                }
            }
        }
        return String.join(" ", sentences.subList(0, Math.min(max, sentences.size())));
    }
}
