package dev.memoir.retrieval.layout;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.memoir.llm.TokenCounter;
import dev.memoir.memory.SearchExplanation;

/**
 * A long memory as the reply prompt shows it: by the passage search matched, not whole, so that the budget holds
 * more evidence.
 */
final class PassageExcerpt {

    private static final Pattern SPEAKER = Pattern.compile("^[^\\n:]{1,40}: ");

    private final TokenCounter tokens;
    private final int passageTokens;

    /** {@code passageTokens} 0 shows every text whole. */
    PassageExcerpt(TokenCounter tokens, int passageTokens) {
        this.tokens = tokens;
        this.passageTokens = passageTokens;
    }

    /**
     * A long text by the passage search matched, widened by a quarter on each side, with the speaker it opens with;
     * one without a matched passage by its beginning. Short texts whole.
     */
    String of(String text, SearchExplanation explanation) {
        if (passageTokens <= 0 || tokens.count(text) <= passageTokens) {
            return text;
        }
        SearchExplanation.Passage passage = explanation == null ? null : explanation.densePassage();
        if (passage == null
                || passage.start() < 0
                || passage.end() > text.length()
                || passage.start() >= passage.end()) {
            return tokens.truncate(text, passageTokens);
        }
        int widen = (passage.end() - passage.start()) / 4;
        int start = wordBoundary(text, Math.max(0, passage.start() - widen), -1);
        int end = wordBoundary(text, Math.min(text.length(), passage.end() + widen), 1);
        StringBuilder shown = new StringBuilder();
        if (start > 0) {
            Matcher speaker = SPEAKER.matcher(text);
            if (speaker.find() && speaker.end() < start) {
                shown.append(speaker.group());
            }
            shown.append('…');
        }
        shown.append(text, start, end).append(end < text.length() ? "…" : "");
        return shown.toString();
    }

    private static int wordBoundary(String text, int at, int direction) {
        int position = at;
        while (position > 0 && position < text.length() && !Character.isWhitespace(text.charAt(position))) {
            position += direction;
        }
        return position;
    }
}
